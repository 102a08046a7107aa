// expected: terminating
// BIG = 0x80000000 does not fit int: gcc gives the enumerator type unsigned int, so BIG > 0 holds and the loop is never entered.
enum { BIG = 0x80000000 };
int main(void) { int f = (BIG > 0); while (!f) { } return 0; }
