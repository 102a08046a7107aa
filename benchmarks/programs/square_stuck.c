// Does not terminate: for y >= 2, x stays 1 (1 * 1 == 1) and x < y holds
// for ever. The step is non-linear; running the loop finds the fixed point.
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int x = 1;
  unsigned int y = __VERIFIER_nondet_uint();
  if (y == 0) return 0;
  while (x < y) {
    if (x < y / x) x = x * x; else x = x + 1;
  }
  return 0;
}
