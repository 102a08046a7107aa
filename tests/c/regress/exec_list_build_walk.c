// expected: terminating
#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *h = 0;
  for (int i = 0; i < 20; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) break;
    n->v = i; n->next = h; h = n;
  }
  int s = 0;
  for (struct node *p = h; p; p = p->next) s += p->v;
  while (h) { struct node *n = h->next; free(h); h = n; }
  return s;
}
