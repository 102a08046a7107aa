// expected: YES
// undefined: none
// First position whose value is at least key, in a sorted array of n inputs
// (n up to 64; the array is made sorted by taking running maxima).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[64];
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 64)
    return 0;
  a[0] = __VERIFIER_nondet_int();
  for (int i = 1; i < n; i++) {
    int v = __VERIFIER_nondet_int();
    a[i] = v > a[i - 1] ? v : a[i - 1];
  }
  int key = __VERIFIER_nondet_int();

  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
