// expected: terminating
// class 3: two live objects, neither at the end of the other
int a[2];
int b;
int main(void) {
  if (&a[0] == &b || &a[1] == &b) while (1) {}
  return 0;
}
