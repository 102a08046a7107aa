// expected: NO
// undefined: none
// loops for: n = 1, value = 0
// Buggy ok_list_length: the walk skips nodes holding 0 with `continue`,
// but forgets to advance the pointer first, so it sticks on the first 0.
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

  int nonzero = 0;
  struct node *p = head;
  while (p != NULL) {
    if (p->value == 0)
      continue;
    nonzero++;
    p = p->next;
  }

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return nonzero;
}
