#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    if (n < 1) return 0;
    int *a = (int *) malloc(n * sizeof(int));
    if (a == NULL) return 0;
    int *end = a + n;
    int sum = 0;
    for (int *p = a; p < end; p++)
        sum += *p;
    free(a);
    return sum;
}
