#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    if (n < 1) n = 1;
    char *s = alloca(n * sizeof(char));
    s[n - 1] = 0;
    char *p = s;
    while (*p != 0)
        p++;
    return (int)(p - s);
}
