// expected: YES
// undefined: none
// Insert up to 100 input keys into a binary search tree (duplicates are
// dropped), then look up an input key iteratively. Nodes are remembered in
// an array so that they can be freed without recursion.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left, *right;
};

int main(void) {
  struct tree *all[100];
  int count = 0;
  struct tree *root = NULL;

  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 100)
    return 0;
  for (int i = 0; i < k; i++) {
    int key = __VERIFIER_nondet_int();
    struct tree **where = &root;
    while (*where && (*where)->key != key)
      where = key < (*where)->key ? &(*where)->left : &(*where)->right;
    if (*where)
      continue; /* already present */
    struct tree *t = malloc(sizeof *t);
    if (!t)
      break;
    t->key = key;
    t->left = t->right = NULL;
    *where = t;
    all[count++] = t;
  }

  int wanted = __VERIFIER_nondet_int();
  struct tree *t = root;
  while (t != NULL && t->key != wanted) {
    if (wanted < t->key)
      t = t->left;
    else
      t = t->right;
  }
  int found = t != NULL;

  for (int i = 0; i < count; i++)
    free(all[i]);
  return found;
}
