#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

int main() {
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x >= 0);
    while (x > 0) {
        if (x == 42)
            exit(1);
        assert(x != 13);
        x--;
    }
    return 0;
}
