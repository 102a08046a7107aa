// terminating: a list built by prepending, walked to its end
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->value = __VERIFIER_nondet_int();
    c->next = head;
    head = c;
  }
  int sum = 0;
  for (struct node *p = head; p != NULL; p = p->next)
    sum += p->value > 0;
  return sum;
}
