// expected: terminating
// rows of int m[n][n] are n ints apart (a wrong answer found by hand-written probes, 2026-12-06)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 20) return 0;
  int m[n][n];
  long d = &m[1][0] - &m[0][0];
  while (d != n) { }
  return 0;
}
