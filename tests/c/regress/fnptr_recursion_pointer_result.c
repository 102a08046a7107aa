// expected: terminating
// `walk` returns a pointer and is called again, through `op` and `helper`,
// while it runs: a recursion the call graph does not show.
extern int __VERIFIER_nondet_int(void);
int *walk(int *p, int n);
int (*op)(int *, int);
int cell;
int helper(int *p, int n) { return *walk(p, n); }
int *walk(int *p, int n) {
  if (n <= 0) return p;
  *p = op(p, n - 1);
  return p;
}
int main(void) {
  op = helper;
  int *q = walk(&cell, __VERIFIER_nondet_int() % 8);
  while (*q > 0) (*q)--;
  return 0;
}
