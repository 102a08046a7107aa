// inputs: n, m
// weakest precondition: n <= 0 || m >= 0
// kind: nested
//
// n rounds, each counting j from 0 up to m with `!=`. The inner loop ends iff
// m >= 0, and it runs at all only if n > 0. For n > 0 && m < 0 the first
// inner loop increments j (and work) forever without repeating a state.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  int i = 0;
  int work = 0;
  while (i < n) {
    int j = 0;
    while (j != m) {
      j++;
      work++;
    }
    i++;
  }
  return work;
}
