// nonterminating: the last node is linked back to the first, then the list is walked
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  struct node *head = NULL, *last = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    if (head == NULL) last = c;
    head = c;
  }
  last->next = head;
  struct node *p = head;
  while (p != NULL) p = p->next;
  return 0;
}
