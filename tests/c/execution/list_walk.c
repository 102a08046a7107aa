// A list of five nodes, built by appending at the tail, walked and freed.
#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void) {
  struct node *head = 0, *tail = 0;
  for (int i = 0; i < 5; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 1;
    n->v = i;
    n->next = 0;
    if (tail) tail->next = n; else head = n;
    tail = n;
  }
  int sum = 0;
  for (struct node *p = head; p; p = p->next) sum += p->v;
  while (head) { struct node *t = head->next; free(head); head = t; }
  return sum;
}
