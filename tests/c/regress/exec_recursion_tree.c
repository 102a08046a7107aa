// expected: terminating
#include <stdlib.h>
struct tree { int v; struct tree *l, *r; };
static struct tree *insert(struct tree *t, int v) {
  if (!t) { t = malloc(sizeof *t); if (!t) return 0; t->v = v; t->l = t->r = 0; return t; }
  if (v < t->v) t->l = insert(t->l, v); else t->r = insert(t->r, v);
  return t;
}
static int size(struct tree *t) { return t ? 1 + size(t->l) + size(t->r) : 0; }
int main(void) {
  struct tree *t = 0;
  for (int i = 0; i < 30; i++) t = insert(t, (i * 17) % 31);
  return size(t);
}
