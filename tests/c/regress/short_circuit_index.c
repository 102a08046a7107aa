// expected: nonterminating
// i < n && a[i] != v: the run that leaves with i == n must be kept (a[n] is not read).
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main() { int n = 5; int *a = malloc(5 * sizeof(int)); int i = 0; int v = __VERIFIER_nondet_int();
 if (!a) return 0;
 for (int k=0;k<5;k++) a[k]=k;
 while (i < n && a[i] != v) i++;
 if (i == n) { while (1) {} }
 return 0; }
