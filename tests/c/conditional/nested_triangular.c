// inputs: n, m
// weakest precondition: n <= 0 || m >= n - 1
// kind: nested
//
// For each row i in 0..n-1 the inner loop walks j from i to m with `!=`; it
// ends iff i <= m. All rows are fine iff n <= 0 or n - 1 <= m. Otherwise the
// first row i with i > m starts j above m and j (and cells) grow forever.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  int cells = 0;
  int i, j;
  for (i = 0; i < n; i++) {
    for (j = i; j != m; j++) {
      cells++;
    }
  }
  return cells;
}
