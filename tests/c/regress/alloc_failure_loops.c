// expected: terminating
// Only a failing allocation leads to the endless loop: SV-COMP's rules say
// allocation never fails (and a compiled run of this program never sees
// it fail), so no NO may rest on it. YES is not expected either: the
// model lets the allocation fail.
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
