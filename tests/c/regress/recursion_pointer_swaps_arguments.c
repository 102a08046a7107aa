// expected: terminating
// Pointer arguments swapped at each descent: both cells count down.
extern int __VERIFIER_nondet_int(void);
void both(int *a, int *b) {
  if (*a > 0 && *b > 0) {
    *a = *a - 1;
    both(b, a);
  }
}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  both(&x, &y);
  return 0;
}
