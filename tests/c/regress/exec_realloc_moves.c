// expected: nonterminating
/* After realloc the loop walks the new block at even indices 0, 2, 4, 6, which all hold 1 (the 0 is at index 3): it never ends. */
#include <stdlib.h>
int main(void) {
  int *a = malloc(4 * sizeof(int));
  if (!a) return 0;
  for (int i = 0; i < 4; i++) a[i] = 1;
  a[3] = 0;
  int *b = realloc(a, 8 * sizeof(int));
  if (!b) { free(a); return 0; }
  for (int i = 4; i < 8; i++) b[i] = 1;
  int j = 0;
  while (b[j % 8] != 0) j = (j + 2) % 8;
  free(b);
  return j;
}
