// expected: YES
// undefined: none
// Bubble sort of ten input numbers, stopping early once a pass swaps nothing.
extern int __VERIFIER_nondet_int(void);

#define N 10

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = __VERIFIER_nondet_int();

  int swapped = 1;
  int pass = 0;
  while (swapped) {
    swapped = 0;
    for (int i = 0; i + 1 < N - pass; i++) {
      if (a[i] > a[i + 1]) {
        int t = a[i];
        a[i] = a[i + 1];
        a[i + 1] = t;
        swapped = 1;
      }
    }
    pass++;
  }

  for (int i = 0; i + 1 < N; i++)
    if (a[i] > a[i + 1])
      return 1;
  return 0;
}
