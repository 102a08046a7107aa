// The paper's Fig. 7: x-- resets y to any value; terminates with the
// lexicographic ranking function (x, y).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x > 0 && y > 0) {
    if (__VERIFIER_nondet_int()) {
      x--;
      y = __VERIFIER_nondet_int();
    } else {
      y--;
    }
  }
  return 0;
}
