// expected: YES
// undefined: 22 division-by-zero
// UB for: n = 0
// Average of n inputs clamped to [-1000, 1000], n up to 100, but the case
// n = 0 is not handled before dividing.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100)
    return 0;

  int sum = 0;
  for (int i = 0; i < n; i++) {
    int v = __VERIFIER_nondet_int();
    if (v < -1000)
      v = -1000;
    if (v > 1000)
      v = 1000;
    sum += v;
  }
  int avg = sum / n; /* UB */
  return avg & 0xff;
}
