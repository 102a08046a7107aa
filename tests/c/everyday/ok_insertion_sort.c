// expected: YES
// undefined: none
// Insertion sort of the first n entries of an array, n an input up to 50.
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
      j--;
    }
    a[j + 1] = key;
  }

  for (int i = 1; i < n; i++)
    if (a[i - 1] > a[i])
      return 1;
  return 0;
}
