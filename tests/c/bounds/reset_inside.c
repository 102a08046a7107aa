// A lexicographic argument: y is set to a new input each time x drops, so
// no bound over the values on entry exists.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x > 0) {
    if (y > 0) {
      y--;
    } else {
      x--;
      y = __VERIFIER_nondet_int();
    }
  }
  return 0;
}
