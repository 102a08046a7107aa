// nonterminating: the link of a fresh block is never written; its indeterminate value is compared forever
#include <stdlib.h>
#include <string.h>
struct node { int value; struct node *next; };
int main(void) {
  struct node *n = malloc(sizeof(struct node));
  if (n == NULL) return 1;
  memset(n, 0xff, sizeof *n);
  struct node *q = malloc(sizeof(struct node));
  if (q == NULL) return 1;
  q->next = NULL;
  while (n->next != NULL) { }
  return 0;
}
