// expected: NO
// undefined: none
// loops for: key = 1000
// Buggy ok_lower_bound on the array 0, 3, ..., 297: `lo = mid` instead of
// `lo = mid + 1`, so once hi == lo + 1 and a[lo] < key, mid stays lo forever.
extern int __VERIFIER_nondet_int(void);

#define N 100

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = 3 * i;
  int key = __VERIFIER_nondet_int();

  int lo = 0, hi = N;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] < key)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}
