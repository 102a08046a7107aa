// expected: NO
// Rotate a list of n <= 1000 inputs right by one (last node to the front) without cutting the old link, then a recursive length.
// loops for: n = 2, values 0, 0 (infinite recursion; a real run overflows the stack)
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int length(struct node *p) {
  if (p == NULL)
    return 0;
  return 1 + length(p->next);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;

  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->value = __VERIFIER_nondet_int();
    p->next = head;
    head = p;
  }

  if (head != NULL && head->next != NULL) {
    struct node *last = head;
    while (last->next != NULL)
      last = last->next;
    last->next = head; /* bug: the node before last still points to it */
    head = last;
  }

  int len = length(head);

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return len == n ? 0 : 1;
}
