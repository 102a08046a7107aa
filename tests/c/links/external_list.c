// nonterminating when get_list (code outside the program) returns a cyclic list: the walk allocates as it goes
#include <stdlib.h>
struct node { int value; struct node *next; };
extern struct node *get_list(void);
int main(void) {
  struct node *mine = NULL;
  for (int i = 0; i < 2; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = mine;
    mine = c;
  }
  struct node *p = get_list();
  while (p != NULL) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 1;
    c->next = NULL;
    p = p->next;
  }
  return 0;
}
