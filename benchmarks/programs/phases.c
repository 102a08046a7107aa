// A loop in two phases: first y runs down while x may grow by a bounded
// amount, then x runs down.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x > 0) {
    if (y > 0) {
      y--;
      x = x + 1;
    } else {
      x--;
    }
  }
  return 0;
}
