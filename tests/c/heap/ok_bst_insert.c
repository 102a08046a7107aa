// expected: YES
// Binary search tree: insert n input keys (n <= 1000) iteratively, search an input key iteratively, free.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left, *right;
};

void free_tree(struct tree *t) {
  if (t == NULL)
    return;
  free_tree(t->left);
  free_tree(t->right);
  free(t);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000)
    return 0;

  struct tree *root = NULL;
  for (int i = 0; i < n; i++) {
    struct tree *t = malloc(sizeof *t);
    if (t == NULL)
      break;
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
      } else {
        if (p->right == NULL) { p->right = t; break; }
        p = p->right;
      }
    }
  }

  int wanted = __VERIFIER_nondet_int();
  struct tree *p = root;
  while (p != NULL && p->key != wanted)
    p = wanted < p->key ? p->left : p->right;

  free_tree(root);
  return 0;
}
