// inputs: h, v, target
// weakest precondition: h >= target || (v > 0 && h + v * (v + 1) / 2 >= target)
// kind: nonlinear
//
// A projectile at height h with upward speed v, slowing by 1 per step: does
// it reach target? After t steps h_t = h + t*v - t*(t-1)/2. The increments
// v, v-1, ... are positive while fewer than v steps were taken, so the
// highest point is h + v*(v+1)/2 for v > 0 and h itself for v <= 0. If that
// is below target, h falls forever (v -> -infinity; no state repeats).
// Values grow quadratically in divergent runs: with machine ints they would
// overflow after ~65000 steps (the check uses 64-bit values; math ints are
// assumed). v * (v + 1) is even, so `/ 2` is exact.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int h = __VERIFIER_nondet_int();
  int v = __VERIFIER_nondet_int();
  int target = __VERIFIER_nondet_int();
  while (h < target) {
    h = h + v;
    v = v - 1;
  }
  return h;
}
