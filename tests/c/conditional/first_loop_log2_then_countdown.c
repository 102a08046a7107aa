// inputs: x, y
// weakest precondition: y <= 0 || x >= 2
// kind: all-terminate-but-one-loop
//
// The first loop always terminates (t > 1 halves), leaving bits ==
// floor(log2(x)) for x >= 2 and bits == 0 for x <= 1 (t > 1 and t / 2 >= 1
// there, so truncating and floor division agree). The second loop counts y
// down by bits: it ends iff y <= 0 or bits >= 1, i.e. x >= 2. Otherwise
// (y > 0, x <= 1) the state repeats at once.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int bits = 0;
  int t = x;
  while (t > 1) {
    t = t / 2;
    bits++;
  }
  while (y > 0) {
    y = y - bits;
  }
  return bits;
}
