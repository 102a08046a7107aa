// expected: YES
// undefined: none
// Greatest common divisor of two non-negative inputs by Euclid's algorithm.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || b < 0)
    return 0;

  while (b != 0) {
    int t = a % b;
    a = b;
    b = t;
  }
  return a == 1;
}
