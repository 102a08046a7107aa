// inputs: x
// weakest precondition: x % 2 == 0
// kind: modular
//
// Drives x to zero: big steps (-4) from above, small steps (+2) from below.
// Both steps are even, so the parity of x never changes and an odd x never
// reaches 0: it ends up bouncing in -3..3 (1 -> -3 -> -1 -> 1 ...), the
// state repeats. An even x > 0 reaches 0 or -2, and an even x < 0 climbs
// to 0 by 2.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x != 0) {
    if (x > 0)
      x = x - 4;
    else
      x = x + 2;
  }
  return 0;
}
