// expected: YES
// undefined: none
// Primality of an input by trial division up to its square root.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2)
    return 0;

  int prime = 1;
  for (int d = 2; d <= n / d; d++) {
    if (n % d == 0) {
      prime = 0;
      break;
    }
  }
  return prime;
}
