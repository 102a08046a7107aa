// expected: terminating
// class 3: two live locals of main, neither at the end of the other
int main(void) {
  int a[2];
  int b;
  if (&a[0] == &b) while (1) {}
  return 0;
}
