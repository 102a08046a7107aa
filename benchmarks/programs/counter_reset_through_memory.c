// expected: NO
// The counter's address is stored in a heap block, loaded back, and a
// store through the loaded pointer resets it: for n >= 7 the loop never
// ends.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct box {
  int *counter;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  struct box *b = malloc(sizeof *b);
  if (b == NULL)
    return 0;
  int i = 0;
  b->counter = &i;
  while (i < n) {
    i++;
    int *c = b->counter;
    if (i > 5)
      *c = 0;
  }
  free(b);
  return 0;
}
