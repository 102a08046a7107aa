// expected: terminating
// Comparing function pointers: past the test, f can only be `dec`.
extern int __VERIFIER_nondet_int(void);
int dec(int x) { return x - 1; }
int same(int x) { return x; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int (*f)(int) = __VERIFIER_nondet_int() ? dec : same;
  if (f == same) return 0;
  while (x > 0) x = f(x);
  return 0;
}
