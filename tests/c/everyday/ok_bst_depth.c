// expected: YES
// undefined: none
// Insert n input keys (n up to 300) into a BST, tracking the deepest insertion;
// find min and max by walking left/right; free by rotating left children up.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left, *right;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 300)
    return 0;
  struct tree *root = NULL;
  int height = 0;
  for (int i = 0; i < n; i++) {
    struct tree *t = malloc(sizeof *t);
    if (!t)
      break;
    t->key = __VERIFIER_nondet_int();
    t->left = t->right = NULL;
    int depth = 0;
    struct tree **where = &root;
    while (*where) {
      where = t->key < (*where)->key ? &(*where)->left : &(*where)->right;
      depth++;
    }
    *where = t;
    if (depth > height)
      height = depth;
  }

  int min = 0, max = 0;
  if (root) {
    struct tree *t = root;
    while (t->left)
      t = t->left;
    min = t->key;
    for (t = root; t->right; t = t->right) {}
    max = t->key;
  }

  while (root) {
    if (root->left) {
      struct tree *l = root->left;
      root->left = l->right;
      l->right = root;
      root = l;
    } else {
      struct tree *r = root->right;
      free(root);
      root = r;
    }
  }
  return min <= max ? height : 255;
}
