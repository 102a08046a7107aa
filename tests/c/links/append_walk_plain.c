// terminating: a list built by appending at its tail, walked to its end (nothing counted)
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int value; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  struct node *head = NULL, *tail = NULL;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (p == NULL) break;
    p->next = NULL;
    if (tail == NULL) head = p; else tail->next = p;
    tail = p;
  }
  struct node *p = head;
  while (p != NULL) p = p->next;
  return 0;
}
