// expected: YES
// Append n input values (n <= 1000) at the tail via a tail pointer, count the negative ones, free.
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
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->value = __VERIFIER_nondet_int();
    p->next = NULL;
    if (tail == NULL)
      head = p;
    else
      tail->next = p;
    tail = p;
  }

  int negative = 0;
  for (struct node *p = head; p != NULL; p = p->next)
    if (p->value < 0)
      negative++;

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return negative > 0;
}
