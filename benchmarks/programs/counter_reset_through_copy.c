// expected: NO
// The counter's address is copied from variable to variable, and a store
// through the last copy resets it: for n >= 7 the loop never ends. (The
// address never reaches memory; a store through a variable that may hold
// it must still change `i`.)
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  int *q = &i;
  int *r;
  r = q;
  while (i < n) {
    i++;
    if (i > 5)
      *r = 0;
  }
  return 0;
}
