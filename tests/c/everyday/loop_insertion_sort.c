// expected: NO
// undefined: none
// loops for: n = 2, a = {2, 1}
// Buggy ok_insertion_sort: the inner loop shifts an element but forgets
// `j--`, so it repeats forever as soon as two elements are out of order.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[50];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 50)
    return 0;
  for (int i = 0; i < n; i++)
    a[i] = __VERIFIER_nondet_int();

  for (int i = 1; i < n; i++) {
    int key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
    }
    a[j + 1] = key;
  }
  return 0;
}
