// expected: terminating
// Every cell of the large global array is 0, so the loop never runs. The
// array is too large to track: its read is an unknown value before the
// loop, and must not make a witness of non-termination.
extern int __VERIFIER_nondet_int(void);
int a[100000];
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k >= 100000) return 0;
  while (a[k] != 0) {}
  return 0;
}
