// expected: nonterminating
// the VLA is written, then the program spins (a VLA declared inside a loop body) (a wrong answer found by hand-written probes, 2026-12-06)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 10) return 0;
  int k = 0;
  for (;;) {
    int a[n];
    a[0] = k;
    k = a[0] + 1;
    if (k > 5) k = 0;
  }
}
