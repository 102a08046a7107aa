// expected: nonterminating
// printf's %1$n (an argument position) writes the count of characters into x.
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { x--; printf("ab%1$n", &x); } return 0; }
