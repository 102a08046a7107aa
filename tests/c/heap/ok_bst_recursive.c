// expected: YES
// Binary search tree: insert n keys in [-1000, 1000] recursively (n <= 1000), recursive in-order count and sum, recursive free.
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

struct tree {
  int key;
  struct tree *left, *right;
};

struct tree *insert(struct tree *t, int key) {
  if (t == NULL) {
    t = malloc(sizeof *t);
    if (t != NULL) {
      t->key = key;
      t->left = t->right = NULL;
    }
    return t;
  }
  if (key < t->key)
    t->left = insert(t->left, key);
  else if (key > t->key)
    t->right = insert(t->right, key);
  return t;
}

void walk(struct tree *t, int *count, int *sum) {
  if (t == NULL)
    return;
  walk(t->left, count, sum);
  *count += 1;
  *sum += t->key;
  walk(t->right, count, sum);
}

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
    int key = __VERIFIER_nondet_int();
    if (key < -1000 || key > 1000)
      key = 0;
    root = insert(root, key);
  }
  int count = 0, sum = 0;
  walk(root, &count, &sum);
  free_tree(root);
  return count <= n ? 0 : 1;
}
