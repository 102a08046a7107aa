#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    if (n < 1) n = 1;
    int *a = (int *) alloca(n * sizeof(int));
    int i;
    for (i = 0; i < n; i++)
        a[i] = 0;
    return 0;
}
