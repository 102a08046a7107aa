// Each iteration reads a new x; the loop goes on while it at least doubles.
// Some run never ends exactly when the loop is entered (x > 1): every run
// ends iff x <= 1 on entry. The samples cannot tell this (the runs depend
// on inputs read inside the loop); the loop skipped is the precondition.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x > 1) {
    int old_x = x;
    x = __VERIFIER_nondet_int();
    if (x < 2 * old_x)
      break;
  }
  return 0;
}
