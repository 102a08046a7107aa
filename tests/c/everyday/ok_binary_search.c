// expected: YES
// undefined: none
// Binary search for an input key in the sorted array 0, 3, 6, ..., 297.
extern int __VERIFIER_nondet_int(void);

#define N 100

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = 3 * i;
  int key = __VERIFIER_nondet_int();

  int lo = 0;
  int hi = N - 1;
  int found = -1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (a[mid] == key) {
      found = mid;
      break;
    } else if (a[mid] < key) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found >= 0 ? 0 : 1;
}
