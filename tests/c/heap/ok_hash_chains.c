// expected: YES
// Hash table of 16 chains: insert n input keys (n <= 1000) at bucket key & 15, look up an input key, free.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct node {
  int key;
  struct node *next;
};

int main(void) {
  struct node *bucket[16];
  for (int h = 0; h < 16; h++)
    bucket[h] = NULL;

  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;
  for (int i = 0; i < n; i++) {
    struct node *p = malloc(sizeof *p);
    if (p == NULL)
      break;
    p->key = __VERIFIER_nondet_int();
    int h = p->key & 15;
    p->next = bucket[h];
    bucket[h] = p;
  }

  int wanted = __VERIFIER_nondet_int();
  struct node *p = bucket[wanted & 15];
  while (p != NULL && p->key != wanted)
    p = p->next;
  int found = p != NULL;

  for (int h = 0; h < 16; h++) {
    while (bucket[h] != NULL) {
      struct node *next = bucket[h]->next;
      free(bucket[h]);
      bucket[h] = next;
    }
  }
  return found;
}
