// terminating: reversing a list whose tail loops back into it ends (the reversal goes round the cycle and comes back out of it)
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 4) return 0;
  struct node *head = NULL, *last = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    head = c;
    if (i == 0) last = c;
  }
  // The oldest node now points at the second newest: a cycle below the head,
  // which the reversal goes round once and leaves, reversed.
  last->next = head->next;
  struct node *prev = NULL, *cur = head->next;
  while (cur != NULL) {
    struct node *next = cur->next;
    cur->next = prev;
    prev = cur;
    cur = next;
  }
  return 0;
}
