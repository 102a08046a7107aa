#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

/* Counts down a cell reached through a pointer parameter. */
void count_down(int *c) {
    while (*c > 0)
        (*c)--;
}

int main() {
    int *x = alloca(sizeof(int));
    *x = __VERIFIER_nondet_int();
    count_down(x);
    return *x;
}
