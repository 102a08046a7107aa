// expected: nonterminating
// class 2: a jump to itself encoded as data
int main(void) { __asm__ volatile("1: .byte 0xeb, 0xfe"); return 0; }
