// inputs: x, y
// weakest precondition: 0 <= x || (some k >= 1 with x + k*y - k*(k-1)/2 >= 0; not linear)
// kind: a proved precondition that cannot be the weakest (no linear one is)
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x < 0) {
    x = x + y;
    y--;
  }
  return 0;
}
