// expected: nonterminating
#include <stdlib.h>
/* Does not terminate when malloc fails: the model lets malloc fail. */
int main(void) {
  int *p = malloc(sizeof(int));
  if (!p) { for (;;) { } }
  *p = 3;
  while (*p > 0) (*p)--;
  free(p);
  return 0;
}
