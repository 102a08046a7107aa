// expected: YES
// undefined: none
// Sum of the decimal digits of any int (negative digits for negative input,
// so INT_MIN is never negated).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int sum = 0;
  int digits = 0;
  while (n != 0) {
    sum += n % 10;
    n /= 10;
    digits++;
  }
  if (sum < 0)
    sum = -sum;
  return sum + digits;
}
