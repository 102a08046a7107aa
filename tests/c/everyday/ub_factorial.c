// expected: YES
// undefined: 14 signed-overflow
// UB for: n = 13
// Factorial in an int for n up to 20; 13! = 6227020800 no longer fits.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 20)
    return 0;

  int f = 1;
  for (int i = 2; i <= n; i++)
    f *= i; /* UB */
  return f & 0xff;
}
