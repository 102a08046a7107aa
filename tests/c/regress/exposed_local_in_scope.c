// expected: nonterminating
// Automatic arrays reached through pointers while their scope is open: in
// a called function, and in a loop body's block (a pointer that dangles
// after the scope must not make them unreachable before it closes).
int spin(void) {
  int a[2] = {5, 5};
  int *p = a;
  p = a;
  while (a[1] > 0) {
    a[1]--;
    p[1] = 5;
  }
  return a[0];
}
int main() {
  int n = __VERIFIER_nondet_int();
  if (n > 0) {
    for (;;) {
      int b[2] = {5, 5};
      int *q = b;
      q = b;
      while (b[1] > 0) {
        b[1]--;
        q[1] = 5;
      }
      break;
    }
  }
  return spin();
}
