// expected: nonterminating
// p == 0 || *p == 1: the run with p == 0 must be kept (*p is not read).
#include <stdlib.h>
int main() { int *p = 0; if (__VERIFIER_nondet_int()) { p = malloc(sizeof(int)); if (!p) return 0; *p = 1; }
 if (p == 0 || *p == 1) { while (1) {} }
 return 0; }
