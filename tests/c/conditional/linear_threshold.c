// inputs: x, y
// weakest precondition: x <= 0 || y < 0
// kind: linear
//
// Drains a stock x by a per-step change y (meant to be negative).
// Why the other inputs run forever (x > 0 && y >= 0): with y == 0 the state
// (x, y) repeats at once; with y > 0, x grows by y every step and stays
// positive, so the loop diverges without repeating a state.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x > 0) {
    x += y;
  }
  return 0;
}
