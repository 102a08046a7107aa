// Three nested loops whose inner bounds depend on the outer counters: the
// nest's bound is a polynomial over the entry values n and m.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  int work = 0;
  for (int i = 0; i < n; i++)
    for (int j = i; j < m; j++)
      for (int k = 0; k < j; k++)
        work ^= 1;
  return work;
}
