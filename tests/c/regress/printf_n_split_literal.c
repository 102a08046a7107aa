// expected: nonterminating
// The %n conversion is split over adjacent string literals: "ab%" "n".
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { x--; printf("ab%" "n", &x); } return 0; }
