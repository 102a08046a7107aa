// expected: YES
// Linked stack: push n input values (n <= 1000), then pop until empty, counting the pops.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static int push(struct node **top, int value) {
  struct node *p = malloc(sizeof *p);
  if (p == NULL)
    return 0;
  p->value = value;
  p->next = *top;
  *top = p;
  return 1;
}

static int pop(struct node **top) {
  struct node *p = *top;
  int value = p->value;
  *top = p->next;
  free(p);
  return value;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;

  struct node *top = NULL;
  for (int i = 0; i < n; i++)
    if (!push(&top, __VERIFIER_nondet_int()))
      break;

  int pops = 0, negative = 0;
  while (top != NULL) {
    if (pop(&top) < 0)
      negative++;
    pops++;
  }
  return pops == n && negative <= n ? 0 : 1;
}
