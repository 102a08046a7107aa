// expected: YES
// undefined: none
// Counting sort of n grades between 0 and 100, n an input up to 500;
// grades outside that range are clamped first.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int grade[500];
  int count[101];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500)
    return 0;

  for (int i = 0; i < n; i++) {
    int g = __VERIFIER_nondet_int();
    if (g < 0) g = 0;
    if (g > 100) g = 100;
    grade[i] = g;
  }

  for (int v = 0; v <= 100; v++)
    count[v] = 0;
  for (int i = 0; i < n; i++)
    count[grade[i]]++;

  int k = 0;
  for (int v = 0; v <= 100; v++) {
    for (int c = 0; c < count[v]; c++) {
      grade[k] = v;
      k++;
    }
  }
  return k == n ? 0 : 1;
}
