// terminating: a list built by prepending is reversed in place (prev/cur/next)
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->value = i;
    c->next = head;
    head = c;
  }
  // Each step points the current node back at the newer one before it:
  // the blocks below it still link to older blocks, and the walk goes on
  // through them.
  struct node *prev = NULL, *cur = head;
  while (cur != NULL) {
    struct node *next = cur->next;
    cur->next = prev;
    prev = cur;
    cur = next;
  }
  return prev == NULL ? 0 : prev->value;
}
