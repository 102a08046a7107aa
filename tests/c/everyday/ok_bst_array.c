// expected: YES
// undefined: none
// A binary search tree kept in arrays of child indices (-1 for none),
// filled with up to 64 input keys; then count the keys below an input bound
// with an iterative walk that uses an explicit stack.
extern int __VERIFIER_nondet_int(void);

#define MAX 64

int key[MAX], left[MAX], right[MAX];

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > MAX)
    return 0;
  int size = 0;
  for (int i = 0; i < n; i++) {
    int k = __VERIFIER_nondet_int();
    key[size] = k;
    left[size] = right[size] = -1;
    if (size > 0) {
      int cur = 0;
      for (;;) {
        int *child = k < key[cur] ? &left[cur] : &right[cur];
        if (*child < 0) {
          *child = size;
          break;
        }
        cur = *child;
      }
    }
    size++;
  }

  int bound = __VERIFIER_nondet_int();
  int stack[MAX];
  int sp = 0;
  int below = 0;
  if (size > 0)
    stack[sp++] = 0;
  while (sp > 0) {
    int cur = stack[--sp];
    if (key[cur] < bound)
      below++;
    if (left[cur] >= 0)
      stack[sp++] = left[cur];
    if (right[cur] >= 0)
      stack[sp++] = right[cur];
  }
  return below;
}
