// expected: terminating
// A recursive function writes through its pointer parameter: after the
// call x is 5 and the loop does not run.
void bump(int *p, int n) {
  if (n > 0) {
    *p = *p + 1;
    bump(p, n - 1);
  }
}
int main(void) {
  int x = 0;
  bump(&x, 5);
  while (x < 5) {}
  return 0;
}
