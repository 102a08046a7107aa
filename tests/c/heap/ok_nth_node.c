// expected: YES
// Build n nodes (n <= 1000), walk k steps from the head (k any input) but stop at the end, free.
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

  int k = __VERIFIER_nondet_int();
  struct node *p = head;
  int i = 0;
  while (i < k && p != NULL) {
    p = p->next;
    i++;
  }
  int nth = p != NULL ? p->value : -1;

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return nth < 0;
}
