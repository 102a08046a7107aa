// expected: nonterminating
// BIG = 0x80000000 is 2147483648 (not INT_MIN): f = 1 and the loop spins forever.
enum { BIG = 0x80000000, HUGE = 5000000000, NEG = -1 };
int main(void) { int f = (BIG == 2147483648); while (f) { } return 0; }
