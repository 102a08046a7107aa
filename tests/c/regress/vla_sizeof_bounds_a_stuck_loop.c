// expected: nonterminating
// cnt = sizeof a = n >= 1 while i stays 0, so i < cnt holds for ever (a wrong answer found by hand-written probes, 2026-12-06)
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50) return 0;
  char a[n];
  unsigned long cnt = sizeof a;
  unsigned long i = 0;
  while (i < cnt) { }
  return 0;
}
