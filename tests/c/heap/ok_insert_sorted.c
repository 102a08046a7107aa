// expected: YES
// Insert n input values (n <= 1000) one by one in ascending order, check the list is sorted, free.
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
    if (head == NULL || p->value <= head->value) {
      p->next = head;
      head = p;
    } else {
      struct node *q = head;
      while (q->next != NULL && q->next->value < p->value)
        q = q->next;
      p->next = q->next;
      q->next = p;
    }
  }

  int sorted = 1;
  for (struct node *p = head; p != NULL && p->next != NULL; p = p->next)
    if (p->value > p->next->value)
      sorted = 0;

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return sorted ? 0 : 1;
}
