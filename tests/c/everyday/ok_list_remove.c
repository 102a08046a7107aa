// expected: YES
// undefined: none
// Build a list of n input values (n up to 200), remove every node equal to
// an input key with a pointer-to-pointer walk, count what is left, free it.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 200)
    return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (!p)
      break;
    p->value = __VERIFIER_nondet_int() % 4;
    p->next = head;
    head = p;
  }
  int key = __VERIFIER_nondet_int() % 4;

  struct node **link = &head;
  while (*link) {
    if ((*link)->value == key) {
      struct node *dead = *link;
      *link = dead->next;
      free(dead);
    } else {
      link = &(*link)->next;
    }
  }

  int left = 0;
  for (struct node *p = head; p; p = p->next)
    left++;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return left;
}
