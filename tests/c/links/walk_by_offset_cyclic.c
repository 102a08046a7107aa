// nonterminating: the walk reads, by its offset, a second link that points each node to itself
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

struct pair {
  struct pair *down;
  struct pair *self;
};

int main(void) {
  struct pair *top = NULL;
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    struct pair *r = malloc(sizeof(struct pair));
    if (r == NULL) return 0;
    r->down = top;
    r->self = r;
    top = r;
  }
  size_t at = offsetof(struct pair, self);
  char *q = (char *)top;
  while (q != NULL)
    q = (char *)*(struct pair **)(q + at);
  return 0;
}
