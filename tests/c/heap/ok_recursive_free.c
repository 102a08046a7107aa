// expected: YES
// Build n nodes (n <= 1000), count the nodes holding an input key, free the list recursively.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

void free_list(struct node *p) {
  if (p == NULL)
    return;
  free_list(p->next);
  free(p);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;
  int key = __VERIFIER_nondet_int();

  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->value = __VERIFIER_nondet_int();
    p->next = head;
    head = p;
  }

  int hits = 0;
  for (struct node *p = head; p != NULL; p = p->next)
    if (p->value == key)
      hits++;

  free_list(head);
  return hits > 0;
}
