// expected: NO
// Reverse n <= 1000 nodes starting at the second one without clearing the old head's next; walk to the last node.
// loops for: n = 2, values 0, 0
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

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

  if (head != NULL) {
    struct node *prev = head, *cur = head->next;
    while (cur != NULL) {
      struct node *next = cur->next;
      cur->next = prev;
      prev = cur;
      cur = next;
    }
    head = prev; /* bug: the old head still points to the second node */
  }

  int last = 0;
  if (head != NULL) {
    struct node *p = head;
    while (p->next != NULL)
      p = p->next;
    last = p->value;
  }

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return last > 0;
}
