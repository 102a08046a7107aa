// nonterminating unless the allocator returns zeroed memory: a link never written is read in the loop guard
#include <stdlib.h>
struct node { int value; struct node *next; };
int main(void) {
  struct node *n = malloc(sizeof(struct node));
  if (n == NULL) return 1;
  struct node *q = malloc(sizeof(struct node));
  if (q == NULL) return 1;
  q->next = NULL;
  while (n->next != NULL) { }
  return 0;
}
