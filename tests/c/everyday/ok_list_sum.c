// expected: YES
// undefined: none
// Append n nodes at the tail (n up to 1000, values clamped to [-1000, 1000]),
// then sum the values: the sum stays within [-1000000, 1000000].
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
    int v = __VERIFIER_nondet_int();
    if (v < -1000 || v > 1000)
      v = 0;
    struct node *p = malloc(sizeof *p);
    if (!p)
      break;
    p->value = v;
    p->next = NULL;
    if (tail)
      tail->next = p;
    else
      head = p;
    tail = p;
  }

  int sum = 0;
  struct node *p = head;
  while (p) {
    sum += p->value;
    p = p->next;
  }

  while (head) {
    p = head->next;
    free(head);
    head = p;
  }
  return sum > 0;
}
