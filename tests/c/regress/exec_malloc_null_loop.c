// expected: terminating
// expected with --allocation may-fail: nonterminating
#include <stdlib.h>
/* Does not terminate when malloc fails (--allocation may-fail); a compiled
   run's malloc succeeds. */
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p) { for (;;) { } }
  *p = 3;
  while (*p > 0) (*p)--;
  free(p);
  return 0;
}
