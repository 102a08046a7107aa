// expected: terminating
// expected with --allocation may-fail: nonterminating
// Only a failing allocation leads to the endless loop: a compiled run of
// this program never sees it fail (and SV-COMP's rules say allocation
// never fails), so under --allocation never-fails it terminates; where
// allocations may fail (C's rule, the default for C files) it does not.
#include <stdlib.h>
void give_up(void) {
  for (;;) {}
}
int main(void) {
  int *p = malloc(sizeof(int));
  if (p == 0) give_up();
  *p = 3;
  while (*p > 0) (*p)--;
  free(p);
  return 0;
}
