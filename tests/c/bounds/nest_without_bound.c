// The inner loops are entered from each other's headers, so the nest has
// no bound (see nest_bound.rs); the outer loop's own bound counts only its
// own iterations and must not be given as the bound of a whole run.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int a = n, b = 0;
  while (a > 0) {
    a--;
    b++;
    while (b > 0) {
      b--;
      for (int i = n - 1; i > 0; i--)
        if (a > 0 && __VERIFIER_nondet_int()) {
          a--;
          b++;
        }
    }
  }
  return 0;
}
