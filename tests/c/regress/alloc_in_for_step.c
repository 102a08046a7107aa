// expected: nonterminating
// malloc in the step of a for: two blocks, *q = 0 does not overwrite *prev.
#include <stdlib.h>
int main() { int i; int *q; q = malloc(sizeof(int)); int *prev = q;
 if (!q) return 0;
 for (i = 0; i < 2; i++, q = malloc(sizeof(int))) { if (!q) return 0; prev = q; }
 if (!q) return 0;
 *prev = 3; *q = 0; while (*prev > 0) {} return 0; }
