// expected: NO
// undefined: none
// loops for: a = 0, b = 5
// GCD by repeated subtraction, without the special case for zero: with one
// argument 0 and the other positive, the larger one never changes.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || b < 0)
    return 0;

  while (a != b) {
    if (a > b)
      a -= b;
    else
      b -= a;
  }
  return a;
}
