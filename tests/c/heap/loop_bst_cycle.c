// expected: NO
// Insert n <= 100 keys into a search tree; a duplicate is hung below its twin with t->right = p (meant p->right), a cycle; search.
// loops for: n = 2, keys 5, 5, wanted = 6
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left, *right;
};

int main(void) {
  struct tree *all[100], *root = NULL;
  int count = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100)
    return 0;
  for (int i = 0; i < n; i++) {
    struct tree *t = malloc(sizeof *t);
    if (t == NULL)
      break;
    all[count++] = t;
    t->key = __VERIFIER_nondet_int();
    t->left = t->right = NULL;
    if (root == NULL) {
      root = t;
      continue;
    }
    struct tree *p = root;
    for (;;) {
      if (t->key < p->key) {
        if (p->left == NULL) { p->left = t; break; }
        p = p->left;
      } else if (t->key > p->key) {
        if (p->right == NULL) { p->right = t; break; }
        p = p->right;
      } else { /* equal key: hang the new node just below p */
        t->right = p; /* bug: should be p->right */
        p->right = t;
        break;
      }
    }
  }

  int wanted = __VERIFIER_nondet_int();
  struct tree *p = root;
  while (p != NULL && p->key != wanted)
    p = wanted < p->key ? p->left : p->right;

  for (int i = 0; i < count; i++)
    free(all[i]);
  return p != NULL;
}
