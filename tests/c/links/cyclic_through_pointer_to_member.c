// nonterminating: the link is written through a pointer to the member, not through ->next
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 2; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    head = c;
  }
  struct node **link = &head->next->next;
  *link = head;
  struct node *p = head;
  while (p != NULL) p = p->next;
  return 0;
}
