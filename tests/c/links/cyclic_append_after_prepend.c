// nonterminating: the appended list's tail is linked back to the first list's head, and the walk from the head goes round
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (p == NULL) return 0;
    p->next = head;
    head = p;
  }
  struct node *copy = NULL, *tail = NULL;
  for (int j = 0; j < n; j++) {
    struct node *c = malloc(sizeof *c);
    if (c == NULL) return 0;
    c->next = NULL;
    if (tail == NULL) copy = c; else tail->next = c;
    tail = c;
  }
  head->next = copy;
  tail->next = head;
  struct node *q = copy;
  while (q != NULL) q = q->next;
  return 0;
}
