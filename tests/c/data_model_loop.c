/* A loop whose model depends on the data model: `long` and `size_t` are
   32 bits under ILP32 and 64 under LP64, so the wrap-around of `n` and the
   range of `i` differ. */
#include <stddef.h>
extern long __VERIFIER_nondet_long(void);
int main(void) {
    long n = __VERIFIER_nondet_long();
    size_t i = 0;
    while (n > 0) {
        n = n - 2;
        i = i + sizeof(long);
    }
    return (int) i;
}
