// expected: YES
// undefined: 11 signed-overflow
// UB for: n = -2147483648
// Digit sum that first makes the input non-negative with n = -n, which
// overflows for INT_MIN.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0)
    n = -n; /* UB */

  int sum = 0;
  while (n > 0) {
    sum += n % 10;
    n /= 10;
  }
  return sum;
}
