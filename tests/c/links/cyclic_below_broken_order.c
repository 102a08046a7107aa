// nonterminating: a newer node's link is pointed up, then an older one's too, and the walk from between them goes round the older two
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  // Lists too long for executing every run: the model decides.
  if (n < 3000000) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    head = c;
  }
  struct node *b = head->next, *c = b->next;
  // The order ends first at the second newest block, then at one below c:
  // from c on, the blocks are not all ordered any more.
  b->next = head;
  c->next->next = c;
  struct node *p = c;
  while (p != NULL) p = p->next;
  return 0;
}
