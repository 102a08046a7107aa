// expected: nonterminating
#include <stdlib.h>
#include <string.h>
struct node { struct node *next; int v; };
/* The cycle is made by memcpy of a pointer into a link. */
int main(void) {
  struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  if (!a || !b) return 0;
  a->next = b; b->next = 0;
  memcpy(&b->next, &a, sizeof a);
  unsigned n = 0;
  for (struct node *p = a; p; p = p->next) n++;
  return (int)n;
}
