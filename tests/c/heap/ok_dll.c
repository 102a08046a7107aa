// expected: YES
// Doubly linked list: append n nodes (n <= 1000), walk forward and backward counting, free.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct dnode {
  int value;
  struct dnode *prev, *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;

  struct dnode *head = NULL, *tail = NULL;
  for (int i = 0; i < n; i++) {
    struct dnode *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->value = __VERIFIER_nondet_int();
    p->next = NULL;
    p->prev = tail;
    if (tail == NULL)
      head = p;
    else
      tail->next = p;
    tail = p;
  }

  int forward = 0, backward = 0;
  for (struct dnode *p = head; p != NULL; p = p->next)
    forward++;
  for (struct dnode *p = tail; p != NULL; p = p->prev)
    backward++;

  while (head != NULL) {
    struct dnode *next = head->next;
    free(head);
    head = next;
  }
  return forward == backward ? 0 : 1;
}
