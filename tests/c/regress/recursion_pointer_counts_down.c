// expected: terminating
// The recursion counts the caller's variable down through a pointer.
extern int __VERIFIER_nondet_int(void);
void down(int *p) {
  if (*p > 0) {
    *p = *p - 1;
    down(p);
  }
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  down(&x);
  return 0;
}
