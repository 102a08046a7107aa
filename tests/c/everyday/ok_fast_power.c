// expected: YES
// undefined: none
// Exponentiation by squaring with a base in [-3, 3] and an exponent in
// [0, 19]: 3^19 = 1162261467 fits in an int, and the base is squared only
// while exponent bits remain (so it never gets past 3^16).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int base = __VERIFIER_nondet_int();
  int e = __VERIFIER_nondet_int();
  if (base < -3 || base > 3 || e < 0 || e > 19)
    return 0;

  int result = 1;
  while (e > 0) {
    if (e % 2 == 1)
      result *= base;
    e /= 2;
    if (e > 0)
      base *= base;
  }
  return result & 0xff;
}
