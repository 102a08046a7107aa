// A list of ten nodes built with an unchecked malloc, then freed. Where an
// allocation may fail, the run where it does dereferences NULL (undefined
// behaviour: the run ends there); where allocations never fail, every run
// is the one run of the list.
#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 10; i++) {
    struct node *n = malloc(sizeof *n);
    n->v = i;
    n->next = head;
    head = n;
  }
  while (head) { struct node *t = head->next; free(head); head = t; }
  return 0;
}
