// expected: terminating
// loop bounded by sizeof a / sizeof a[0] == n (a wrong answer found by hand-written probes, 2026-12-06)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50) return 0;
  int a[n];
  unsigned long cnt = sizeof a / sizeof a[0];
  unsigned long i = 0;
  while (i != cnt) { a[i] = 0; i++; }
  while (cnt == 0) { }
  return 0;
}
