// expected: nonterminating
// The pointer returned through f is &one or &zero, chosen by the input.
extern int __VERIFIER_nondet_int(void);
int zero = 0, one = 1;
int *get_zero(void) { return &zero; }
int *get_one(void) { return &one; }
int main(void) {
  int *(*f)(void) = __VERIFIER_nondet_int() ? get_zero : get_one;
  int *p = f();
  while (*p > 0) {
  }
  return 0;
}
