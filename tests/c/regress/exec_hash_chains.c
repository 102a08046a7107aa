// expected: terminating
#include <stdlib.h>
#include <string.h>
struct item { unsigned key; struct item *next; };
struct table { unsigned n; struct item **b; };
static unsigned hash(unsigned k) { k ^= k >> 7; k *= 2654435761u; return k ^ (k >> 13); }
static int grow(struct table *t) {
  struct item **nb = calloc(2 * t->n, sizeof *nb);
  if (!nb) return 0;
  for (unsigned i = 0; i < t->n; i++) {
    struct item *it = t->b[i];
    while (it) { struct item *nx = it->next; unsigned h = hash(it->key) & (2 * t->n - 1); it->next = nb[h]; nb[h] = it; it = nx; }
  }
  free(t->b); t->b = nb; t->n *= 2; return 1;
}
int main(void) {
  struct table t = { 4, 0 };
  t.b = calloc(t.n, sizeof *t.b);
  if (!t.b) return 0;
  for (unsigned k = 0; k < 40; k++) {
    struct item *it = malloc(sizeof *it);
    if (!it) return 0;
    it->key = k * 7;
    unsigned h = hash(it->key) & (t.n - 1);
    it->next = t.b[h]; t.b[h] = it;
    if (k % 8 == 7 && !grow(&t)) return 0;
  }
  unsigned found = 0;
  for (unsigned k = 0; k < 60; k++) {
    for (struct item *it = t.b[hash(k) & (t.n - 1)]; it; it = it->next) if (it->key == k) { found++; break; }
  }
  return (int)found;
}
