// expected: nonterminating
// HUGE = 5000000000 keeps its value (the enum's type is long in gcc), so f = 1 and the loop spins; the value seems truncated to 32 bits.
enum { BIG = 0x80000000, HUGE = 5000000000, NEG = -1 };
int main(void) { int f = (HUGE == 5000000000); while (f) { } return 0; }
