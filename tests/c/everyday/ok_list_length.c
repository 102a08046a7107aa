// expected: YES
// undefined: none
// Build a list of n nodes (n an input up to 1000), count its length, free it.
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

  int len = 0;
  for (struct node *p = head; p != NULL; p = p->next)
    len++;

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return len == n ? 0 : 1;
}
