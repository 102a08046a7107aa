// nonterminating: a first walk ends, then the list is made cyclic and walked again
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    head = c;
  }
  struct node *p = head;
  while (p->next != NULL) p = p->next;
  p->next = head;
  struct node *q = head;
  while (q != NULL) q = q->next;
  return 0;
}
