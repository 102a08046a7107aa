// expected: terminating
// In an enum holding 5000000000, gcc gives the out-of-int constants the enum's 8-byte type: sizeof(BIG) == 8, so f = 0.
enum { BIG = 0x80000000, HUGE = 5000000000, NEG = -1 };
int main(void) { int f = (sizeof(BIG) == 4); while (f) { } return 0; }
