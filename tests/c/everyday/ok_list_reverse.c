// expected: YES
// undefined: none
// Build a list of n nodes holding 0..n-1, reverse it in place, check the
// order with a walk, and free it.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500)
    return 0;

  struct node *head = NULL;
  for (int i = n - 1; i >= 0; i--) {
    struct node *p = malloc(sizeof *p);
    if (!p)
      return 2;
    p->value = i;
    p->next = head;
    head = p;
  }

  struct node *prev = NULL;
  while (head) {
    struct node *next = head->next;
    head->next = prev;
    prev = head;
    head = next;
  }
  head = prev;

  int expect = n - 1;
  int bad = 0;
  for (struct node *p = head; p; p = p->next) {
    if (p->value != expect)
      bad = 1;
    expect--;
  }

  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return bad;
}
