// terminating: a list built by appending at its tail, walked from its head
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  struct node *head = malloc(sizeof(struct node));
  if (head == NULL) return 1;
  head->next = NULL;
  struct node *tail = head;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = NULL;
    tail->next = c;
    tail = c;
  }
  int len = 0;
  for (struct node *p = head; p != NULL; p = p->next)
    len++;
  return len;
}
