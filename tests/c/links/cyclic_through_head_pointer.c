// does not terminate: the last node is linked back to the head read through a pointer to it
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  int tag;
  struct cell *rest;
};

int main(void) {
  struct cell *h = NULL;
  struct cell **hp = &h;
  int n = __VERIFIER_nondet_int();
  while (n-- > 0) {
    struct cell *c = malloc(sizeof *c);
    if (c == NULL) return 0;
    c->tag = 0;
    c->rest = *hp;
    *hp = c;
  }
  if (h == NULL) return 0;
  struct cell *last = h;
  while (last->rest != NULL) last = last->rest;
  last->rest = *hp;
  for (struct cell *p = h; p != NULL; p = p->rest) {
  }
  return 0;
}
