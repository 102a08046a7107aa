// nonterminating: a node reached through a second pointer is linked back to the head
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 3; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    head = c;
  }
  struct node *second = head->next;
  struct node *third = second->next;
  third->next = head;
  struct node *p = head;
  while (p != NULL) p = p->next;
  return 0;
}
