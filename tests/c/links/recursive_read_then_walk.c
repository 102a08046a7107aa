// terminating: a recursion that only reads the list keeps its order for the walk after it
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int length(struct node *p) {
  if (p == NULL) return 0;
  return 1 + length(p->next);
}
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) break;
    c->next = head;
    head = c;
  }
  int len = length(head);
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return len;
}
