// expected: NO
// Count the non-negative values of a list of n <= 1000 inputs; the negative branch forgets p = p->next.
// loops for: n = 1, value = -1
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

  int nonnegative = 0, seen_negative = 0;
  struct node *p = head;
  while (p != NULL) {
    if (p->value < 0) {
      seen_negative = 1;
    } else {
      nonnegative++;
      p = p->next;
    }
  }

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return seen_negative ? 1 : nonnegative == 0;
}
