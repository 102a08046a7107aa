// expected: YES
// undefined: none
// Selection sort of twenty input numbers.
extern int __VERIFIER_nondet_int(void);

#define N 20

int main(void) {
  int a[N];
  for (int i = 0; i < N; i++)
    a[i] = __VERIFIER_nondet_int();

  for (int i = 0; i < N - 1; i++) {
    int min = i;
    for (int j = i + 1; j < N; j++)
      if (a[j] < a[min])
        min = j;
    if (min != i) {
      int t = a[i];
      a[i] = a[min];
      a[min] = t;
    }
  }

  int ok = 1;
  for (int i = 1; i < N; i++)
    if (a[i - 1] > a[i])
      ok = 0;
  return ok ? 0 : 1;
}
