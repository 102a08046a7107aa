// expected: YES
// undefined: 13 signed-overflow
// UB for: lo = 2147483647, hi = 1
// Midpoint of two non-negative inputs computed as (lo + hi) / 2: the sum
// overflows when both are large (the binary-search midpoint bug).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  if (lo < 0 || hi < 0)
    return 0;
  int mid = (lo + hi) / 2; /* UB */
  int steps = 0;
  while (mid > 0 && steps < 40) {
    mid /= 2;
    steps++;
  }
  return steps;
}
