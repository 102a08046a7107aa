/* 2^32 - 1 + 1 is 0 in a 32-bit unsigned long (ILP32): the loop never ends;
   in a 64-bit one (LP64) it is 2^32 and the loop is skipped. */
int main(void) {
    unsigned long x = 4294967295UL;
    x = x + 1;
    while (x == 0) {
    }
    return 0;
}
