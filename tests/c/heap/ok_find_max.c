// expected: YES
// Build n input values (n <= 1000), walk the list to find the largest value, free.
#include <limits.h>
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

  int max = INT_MIN;
  for (struct node *p = head; p != NULL; p = p->next)
    if (p->value > max)
      max = p->value;

  int ok = 1;
  while (head != NULL) {
    struct node *next = head->next;
    if (head->value > max)
      ok = 0;
    free(head);
    head = next;
  }
  return ok ? 0 : 1;
}
