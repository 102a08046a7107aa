// nonterminating: a reversal stopped after one step leaves two nodes pointing at each other, and the walk from the head goes round them
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    head = c;
  }
  struct node *second = head->next;
  second->next = head;
  struct node *p = head;
  while (p != NULL) p = p->next;
  return 0;
}
