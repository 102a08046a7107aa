// expected: YES
// Build n input values (n <= 1000), delete every node equal to an input key using a prev pointer, free the rest.
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

  struct node *prev = NULL, *cur = head;
  while (cur != NULL) {
    if (cur->value == key) {
      struct node *next = cur->next;
      if (prev == NULL)
        head = next;
      else
        prev->next = next;
      free(cur);
      cur = next;
    } else {
      prev = cur;
      cur = cur->next;
    }
  }

  int left_with_key = 0;
  while (head != NULL) {
    struct node *next = head->next;
    if (head->value == key)
      left_with_key = 1;
    free(head);
    head = next;
  }
  return left_with_key;
}
