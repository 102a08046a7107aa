// nonterminating (for some inputs): the unlinking walk of a list closed into a ring
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct entry {
  struct entry *succ;
  int weight;
};

int main(void) {
  struct entry *first = NULL;
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    struct entry *e = malloc(sizeof(struct entry));
    if (e == NULL) return 0;
    e->weight = __VERIFIER_nondet_int();
    e->succ = first;
    first = e;
  }
  if (first == NULL) return 0;
  struct entry *last = first;
  while (last->succ != NULL)
    last = last->succ;
  last->succ = first;
  int drop = __VERIFIER_nondet_int();
  struct entry *at = first;
  while (at->succ != NULL) {
    if (at->succ->weight == drop)
      at->succ = at->succ->succ;
    else
      at = at->succ;
  }
  return 0;
}
