// expected: nonterminating
// %hhn (a length modifier) writes into a signed char.
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main() { signed char x = __VERIFIER_nondet_int(); while (x > 0) { x--; printf("ab%hhn", &x); } return 0; }
