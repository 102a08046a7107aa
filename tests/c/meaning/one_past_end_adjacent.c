// expected: unspecified
// class 3: one past the end of an array against the next local (gcc -O0 places them so, -O2 folds the comparison)
int main(void) {
  int a[2];
  int b;
  int *p = &a[2], *q = &b;
  int *r = &b + 1, *s = &a[0];
  if (p == q || r == s) while (1) {}
  return 0;
}
