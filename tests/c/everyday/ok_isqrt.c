// expected: YES
// undefined: none
// Integer square root of a non-negative input by counting up; the test is
// written as r + 1 <= n / (r + 1) so that no square is ever computed.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0)
    return 0;

  int r = 0;
  while (r + 1 <= n / (r + 1))
    r++;
  return r & 0xff;
}
