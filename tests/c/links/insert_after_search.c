// terminates: the new node is made before the walk that finds its place
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  int key;
  struct item *next;
};

static void insert_sorted(struct item **first, int key) {
  struct item *fresh = malloc(sizeof(struct item));
  if (fresh == NULL) return;
  fresh->key = key;
  struct item *at = *first;
  if (at == NULL || at->key >= key) {
    fresh->next = at;
    *first = fresh;
    return;
  }
  while (at->next != NULL && at->next->key < key)
    at = at->next;
  fresh->next = at->next;
  at->next = fresh;
}

int main(void) {
  struct item *list = NULL;
  int count = __VERIFIER_nondet_int();
  for (int i = 0; i < count; i++) {
    struct item *c = malloc(sizeof(struct item));
    if (c == NULL) return 0;
    c->key = __VERIFIER_nondet_int();
    c->next = list;
    list = c;
  }
  insert_sorted(&list, __VERIFIER_nondet_int());
  return 0;
}
