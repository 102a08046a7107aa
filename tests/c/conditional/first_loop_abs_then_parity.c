// inputs: x, y
// weakest precondition: (y <= x || y <= -x) && (x - y) % 2 == 0
// kind: all-terminate-but-one-loop, modular
//
// The first loop always terminates and sets m = |x| by counting. The second
// loop raises y in steps of 2 until it equals m: it ends iff y <= m, i.e.
// y <= x || y <= -x, and m - y is even; |x| and x have the same parity,
// hence (x - y) % 2 == 0.
// Otherwise y starts above m, or steps over it, and grows forever (no state
// repeats).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int m = 0;
  int t = x;
  if (t < 0)
    t = -t;
  while (t > 0) {
    t--;
    m++;
  }
  while (y != m) {
    y += 2;
  }
  return m;
}
