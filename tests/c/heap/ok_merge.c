// expected: YES
// Build two ascending lists of n, m <= 500 nodes (steps from inputs), merge them into one, check and free.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static struct node *build_sorted(int n) {
  struct node *head = NULL, **end = &head;
  int value = 0;
  for (int i = 0; i < n; i++) {
    int step = __VERIFIER_nondet_int();
    if (step < 0 || step > 10)
      step = 1;
    value += step;
    struct node *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->value = value;
    p->next = NULL;
    *end = p;
    end = &p->next;
  }
  return head;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 0 || n > 500 || m < 0 || m > 500)
    return 0;
  struct node *a = build_sorted(n);
  struct node *b = build_sorted(m);
  struct node dummy, *tail = &dummy;
  while (a != NULL && b != NULL) {
    if (a->value <= b->value) {
      tail->next = a;
      a = a->next;
    } else {
      tail->next = b;
      b = b->next;
    }
    tail = tail->next;
  }
  tail->next = a != NULL ? a : b;
  int sorted = 1;
  struct node *head = dummy.next;
  while (head != NULL) {
    struct node *next = head->next;
    if (next != NULL && head->value > next->value)
      sorted = 0;
    free(head);
    head = next;
  }
  return sorted ? 0 : 1;
}
