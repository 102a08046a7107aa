// expected: NO
// Delete every node equal to an input key from n <= 1000 inputs; a match at the head is neither unlinked nor skipped.
// loops for: n = 1, key = 5, value = 5
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
      if (prev != NULL) {
        prev->next = cur->next;
        free(cur);
        cur = prev->next;
      }
    } else {
      prev = cur;
      cur = cur->next;
    }
  }

  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
