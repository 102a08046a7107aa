// expected: terminating
// A recursive function returns a pointer into the caller's array: the
// loop after the call walks to the array's end.
int *last(int *p, int n) {
  if (n <= 1) return p;
  return last(p + 1, n - 1);
}
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int *q = last(a, 4);
  int k = 0;
  while (q > a && k < 10) { q--; k++; }
  return 0;
}
