// expected: nonterminating
#include <stdlib.h>
struct node { int v; struct node *next; };
/* Builds a list of 5, closes it into a cycle, walks it forever. */
int main(void) {
  struct node *h = 0, *t = 0;
  for (int i = 0; i < 5; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 1;
    n->v = i; n->next = h; h = n;
    if (!t) t = n;
  }
  t->next = h;
  unsigned s = 0;
  for (struct node *p = h; p; p = p->next) s += p->v & 1;
  return (int)s;
}
