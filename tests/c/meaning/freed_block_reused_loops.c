// expected: nonterminating
// class 3: a freed block and the next allocation of its size (glibc reuses it)
#include <stdlib.h>
#include <stdint.h>
int main(void) {
  int *p = malloc(sizeof(int));
  uintptr_t a = (uintptr_t)p;
  free(p);
  int *q = malloc(sizeof(int));
  if ((uintptr_t)q == a) while (1) {}
  free(q);
  return 0;
}
