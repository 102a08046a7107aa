// expected: terminating
// same as q05b but in main, no function call (a wrong answer found by hand-written probes, 2026-12-06)
int main(void) {
  int *p = 0, *q;
  int j = 0;
again:
  q = p, p = &((int){ j++ });
  if (j < 2) goto again;
  while (p != q) { }
  return 0;
}
