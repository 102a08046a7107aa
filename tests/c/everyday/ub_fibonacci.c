// expected: YES
// undefined: 15 signed-overflow
// UB for: n = 46
// Like ok_fibonacci but for n up to 50: the loop computes fib(n+1), and
// fib(47) = 2971215073 does not fit in an int.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 50)
    return 0;

  int a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    int t = a + b; /* UB */
    a = b;
    b = t;
  }
  return a & 0xff;
}
