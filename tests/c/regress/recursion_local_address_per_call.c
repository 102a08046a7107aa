// expected: terminating
// Each call has its own `x`: the callee reads its caller's `x` (0) through
// `p`, not its own (1), and returns. A model with one `x` for every call
// would read 1 and recurse forever.
void rec(int *p, int n) {
  int x = n;
  if (*p != n)
    return;
  rec(&x, n + 1);
}

int main() {
  int a = 0;
  rec(&a, 0);
  return 0;
}
