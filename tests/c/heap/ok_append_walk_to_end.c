// expected: YES
// Append n nodes (n <= 1000), each time walking from the head to the last node; then count and free.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static struct node *append(struct node *head, struct node *p) {
  if (head == NULL)
    return p;
  struct node *q = head;
  while (q->next)
    q = q->next;
  q->next = p;
  return head;
}

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
    p->next = NULL;
    head = append(head, p);
  }

  int count = 0;
  for (struct node *p = head; p; p = p->next)
    count++;

  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return count == n ? 0 : 1;
}
