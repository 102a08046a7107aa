// expected: YES
// Build n input values (n <= 1000), split the nodes alternately into two lists, count both, free both.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static int free_count(struct node *p) {
  int count = 0;
  while (p != NULL) {
    struct node *next = p->next;
    free(p);
    p = next;
    count++;
  }
  return count;
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

  struct node *even = NULL, *odd = NULL;
  int to_even = 1;
  while (head != NULL) {
    struct node *p = head;
    head = head->next;
    if (to_even) {
      p->next = even;
      even = p;
    } else {
      p->next = odd;
      odd = p;
    }
    to_even = !to_even;
  }

  int a = free_count(even);
  int b = free_count(odd);
  return a + b == n && a - b >= 0 && a - b <= 1 ? 0 : 1;
}
