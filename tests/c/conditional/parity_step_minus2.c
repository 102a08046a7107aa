// inputs: x
// weakest precondition: x >= 0 && x % 2 == 0
// kind: modular
//
// Counts x down in pairs, stopping at exactly zero.
// Why the other inputs run forever: x only decreases by 2, so it reaches 0
// only from a non-negative even start. A negative x decreases forever; an
// odd positive x steps over 0 (1 -> -1) and then decreases forever. No state
// repeats.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int pairs = 0;
  while (x != 0) {
    x -= 2;
    pairs++;
  }
  return pairs;
}
