// expected: YES
// Prepend n input values (n <= 1000), walk the list counting nodes, free all.
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

  int count = 0;
  struct node *p = head;
  while (p != NULL) {
    count++;
    p = p->next;
  }

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return count == n ? 0 : 1;
}
