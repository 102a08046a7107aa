// Loops for ever exactly when the allocation fails.
#include <stdlib.h>
int main(void) {
  int *p = malloc(4);
  if (!p) while (1) {}
  free(p);
  return 0;
}
