// expected: nonterminating
// after writing a[0] the program loops for ever (a wrong answer found by hand-written probes, 2026-12-06)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50) return 0;
  int a[n];
  a[0] = 0;
  while (1) { }
  return 0;
}
