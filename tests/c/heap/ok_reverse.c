// expected: YES
// Build n nodes (n <= 1000) holding n-1, ..., 0, reverse in place (prev/cur/next), check the order, free.
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
    p->value = i;
    p->next = head;
    head = p;
  }

  struct node *prev = NULL, *cur = head;
  while (cur != NULL) {
    struct node *next = cur->next;
    cur->next = prev;
    prev = cur;
    cur = next;
  }
  head = prev;

  int expect = 0, ok = 1;
  for (struct node *p = head; p != NULL; p = p->next) {
    if (p->value != expect)
      ok = 0;
    expect++;
  }

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return ok ? 0 : 1;
}
