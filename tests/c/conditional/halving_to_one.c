// inputs: x
// weakest precondition: x >= 1
// kind: linear
//
// Integer log2 by halving, testing `x != 1` instead of `x > 1`.
// x >= 1: x / 2 >= 1 while x >= 2 and x decreases, so it reaches 1.
// x <= 0: x / 2 <= 0, so x never becomes 1; x reaches 0 (C's truncating
// division) or stays at -1 (floor division) for ever while steps grows.
// The answer is the same under either rounding.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int steps = 0;
  while (x != 1) {
    x = x / 2;
    steps++;
  }
  return steps;
}
