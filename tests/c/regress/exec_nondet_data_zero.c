// expected: nonterminating
/* y is 0 whatever x is; z is an input, and z == 0 makes the loop run forever. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int z = __VERIFIER_nondet_int();
  int y = x * 0;
  int i = 5;
  while (i > y) { i -= (z != 0); }
  return 0;
}
