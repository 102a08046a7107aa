// expected: terminating
// Reaching __builtin_unreachable is undefined behaviour: the only run
// that would spin is not a C execution.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) __builtin_unreachable();
  while (x > 0) { }
  return 0;
}
