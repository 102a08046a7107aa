// expected: nonterminating
// m[0][0] keeps 1 after writing m[1][0], so the loop never ends (a wrong answer found by hand-written probes, 2026-12-06)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 20) return 0;
  int m[n][n];
  m[0][0] = 1;
  m[1][0] = 2;
  while (m[0][0] == 1) { }
  return 0;
}
