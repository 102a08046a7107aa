// inputs: x
// weakest precondition: x <= 10 && (10 - x) % 3 == 0
// kind: modular
//
// Advances x in steps of 3 until it hits 10 exactly.
// Why the other inputs run forever: x only grows and x + 3k == 10 needs
// k = (10 - x) / 3 to be a non-negative integer. If x > 10, or 10 - x is not
// a multiple of 3, x passes 10 (or starts above it) and grows forever;
// no state repeats (x and steps increase).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int steps = 0;
  while (x != 10) {
    x += 3;
    steps++;
  }
  return steps;
}
