// expected: YES
// Build n input values (n <= 1000), copy the list node by node keeping a tail pointer, compare, free both.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static void free_list(struct node *p) {
  while (p != NULL) {
    struct node *next = p->next;
    free(p);
    p = next;
  }
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
    p->next = head;
    head = p;
  }

  struct node *copy = NULL, *tail = NULL;
  for (struct node *p = head; p != NULL; p = p->next) {
    struct node *c = malloc(sizeof *c);
    if (c == NULL)
      break;
    c->value = p->value;
    c->next = NULL;
    if (tail == NULL)
      copy = c;
    else
      tail->next = c;
    tail = c;
  }

  int same = 1;
  struct node *a = head, *b = copy;
  for (; a != NULL && b != NULL; a = a->next, b = b->next)
    if (a->value != b->value)
      same = 0;

  free_list(head);
  free_list(copy);
  return same && a == NULL && b == NULL ? 0 : 1;
}
