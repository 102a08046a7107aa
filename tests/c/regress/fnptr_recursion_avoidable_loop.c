// expected: nonterminating
// The loop never has to call `count` (which recurses through `op`): the
// run that always skips it goes on forever.
extern int __VERIFIER_nondet_int(void);
int (*op)(int);
int count(int n) {
  if (n <= 0) return 0;
  return op(n - 1) + 1;
}
int main(void) {
  op = count;
  while (1) {
    if (__VERIFIER_nondet_int()) count(3);
  }
  return 0;
}
