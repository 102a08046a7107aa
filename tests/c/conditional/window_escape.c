// inputs: x, d
// weakest precondition: x < -20 || x > 20 || d != 0
// kind: disjunctive
//
// Moves x by d until it leaves the window -20..20. Any d != 0 leaves the
// (bounded) window eventually; x outside the window never enters the loop.
// Otherwise (x in the window, d == 0) the state repeats at once.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int d = __VERIFIER_nondet_int();
  while (x >= -20 && x <= 20) {
    x = x + d;
  }
  return x;
}
