// expected: terminating
// sizeof a VLA of n >= 1 ints is 4n > 0 (a wrong answer found by hand-written probes, 2026-12-06)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50) return 0;
  int a[n];
  while (sizeof a == 0) { }
  return 0;
}
