// expected: unspecified
// class 3: a pointer to a local of two calls (gcc -O0 reuses the slot, -O2 folds the comparison)
static int *keep;
static void f(void) { int x = 0; keep = &x; }
int main(void) {
  f();
  int *a = keep;
  f();
  if (a == keep) while (1) {}
  return 0;
}
