// expected: NO
// Insert n <= 1000 inputs at the head, or at the tail if above the head, where a slip sets next = head; find the max.
// loops for: n = 2, values 1, 2
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

  struct node *head = NULL, *tail = NULL;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->value = __VERIFIER_nondet_int();
    if (head == NULL) {
      p->next = NULL;
      head = tail = p;
    } else if (p->value <= head->value) {
      p->next = head;
      head = p;
    } else {
      p->next = head; /* bug: should be NULL */
      tail->next = p;
      tail = p;
    }
  }

  int max = INT_MIN;
  for (struct node *p = head; p != NULL; p = p->next)
    if (p->value > max)
      max = p->value;

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return max > 0;
}
