// expected: YES
// undefined: none
// The n-th Fibonacci number for n up to 45. The loop also computes fib(n+1),
// which for n = 45 is fib(46) = 1836311903, still below INT_MAX.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 45)
    return 0;

  int a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    int t = a + b;
    a = b;
    b = t;
  }
  return a & 0xff;
}
