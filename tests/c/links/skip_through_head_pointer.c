// terminates: the walk reads and writes the list head through a pointer to it
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  int tag;
  struct cell *rest;
};

static void drop_leading(struct cell **head, int tag) {
  while (*head != NULL && (*head)->tag == tag)
    *head = (*head)->rest;
}

int main(void) {
  struct cell *h = NULL;
  int n = __VERIFIER_nondet_int();
  while (n-- > 0) {
    struct cell *c = malloc(sizeof *c);
    if (c == NULL) break;
    c->tag = __VERIFIER_nondet_int();
    c->rest = h;
    h = c;
  }
  drop_leading(&h, 0);
  return 0;
}
