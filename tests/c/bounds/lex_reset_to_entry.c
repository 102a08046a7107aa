// A lexicographic argument whose second component restarts from a value
// the loop never changes: y is set back to n each time x drops, so the
// iterations are bounded by a product over the values on entry.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int x = n;
  while (x > 0) {
    if (y > 0) {
      y--;
    } else {
      x--;
      y = n;
    }
  }
  return 0;
}
