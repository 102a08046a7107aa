// expected: nonterminating
// &x is the same object on both passes, so p == q and the loop never ends (a wrong answer found by hand-written probes, 2026-12-06)
int main(void) {
  int j = 0;
  int *p = 0, *q;
again:;
  int x = j;
  q = p;
  p = &x;
  j++;
  if (j < 2) goto again;
  while (p == q) { }
  return 0;
}
