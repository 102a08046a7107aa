// expected: nonterminating
// malloc in a called function reached again by goto: two blocks.
#include <stdlib.h>
int *mk(void) { return malloc(sizeof(int)); }
int main() { int *a = 0; int *b = 0; int k = 0;
again:
 b = a; a = mk(); if (!a) return 0;
 k++; if (k < 2) goto again;
 *b = 3; *a = 0; while (*b > 0) {} return 0; }
