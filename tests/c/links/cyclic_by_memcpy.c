// nonterminating: memcpy copies the head's bytes, its link included, into the last node
#include <stdlib.h>
#include <string.h>
struct node { int value; struct node *next; };
int main(void) {
  struct node *head = NULL;
  for (int i = 0; i < 2; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = head;
    head = c;
  }
  struct node *self = head;
  memcpy(&head->next->next, &self, sizeof self);
  struct node *p = head;
  while (p != NULL) p = p->next;
  return 0;
}
