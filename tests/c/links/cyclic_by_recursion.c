// nonterminating: a recursion links the last node back to the head, then the list is walked
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
void close_ring(struct node *p, struct node *first) {
  if (p->next == NULL) { p->next = first; return; }
  close_ring(p->next, first);
}
int count(struct node *p) {
  if (p == NULL) return 0;
  return 1 + count(p->next);
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->next = head;
    head = c;
  }
  int before = count(head);
  close_ring(head, head);
  struct node *p = head;
  while (p != NULL) p = p->next;
  return before;
}
