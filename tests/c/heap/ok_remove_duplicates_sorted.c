// expected: YES
// Build an ascending list of n <= 1000 nodes (input steps 0..3), remove adjacent duplicates, check, free.
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

  struct node *head = NULL, *tail = NULL;
  int value = 0;
  for (int i = 0; i < n; i++) {
    int step = __VERIFIER_nondet_int();
    if (step < 0 || step > 3)
      step = 0;
    value += step;
    struct node *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->value = value;
    p->next = NULL;
    if (tail == NULL)
      head = p;
    else
      tail->next = p;
    tail = p;
  }

  struct node *p = head;
  while (p != NULL && p->next != NULL) {
    if (p->value == p->next->value) {
      struct node *dup = p->next;
      p->next = dup->next;
      free(dup);
    } else {
      p = p->next;
    }
  }

  int strict = 1;
  while (head != NULL) {
    struct node *next = head->next;
    if (next != NULL && head->value >= next->value)
      strict = 0;
    free(head);
    head = next;
  }
  return strict ? 0 : 1;
}
