// inputs: x, y
// weakest precondition: x >= y && (x - y) % 2 == 0
// kind: modular
//
// Two counters, the second one faster, loop until they meet. x - y drops by
// 2 each step, so they meet iff x - y is non-negative and even. Otherwise
// x - y decreases forever past 0 while both counters grow (no state
// repeats).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x != y) {
    x = x + 1;
    y = y + 3;
  }
  return x;
}
