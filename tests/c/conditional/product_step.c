// inputs: x, y, z
// weakest precondition: x <= 0 || y * z > 0
// kind: nonlinear
//
// Each round removes y packets of size z from the stock x.
// With x > 0 the loop ends iff the per-round change -y*z is negative.
// y * z == 0: the state repeats at once; y * z < 0: x grows forever.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int z = __VERIFIER_nondet_int();
  while (x > 0) {
    x = x - y * z;
  }
  return x;
}
