// expected: nonterminating
// the compound literal is one object in its block (C11 6.5.2.5p16): p == q, loop never ends (a wrong answer found by hand-written probes, 2026-12-06)
int main(void) {
  int *p = 0, *q;
  int j = 0;
again:
  q = p, p = &((int){ j++ });
  if (j < 2) goto again;
  while (p == q) { }
  return 0;
}
