// expected: nonterminating
// For k != 0 the store through pp sets a, which the loop tests.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int k = __VERIFIER_nondet_int();
  int x = 0;
  int *a = 0;
  int *b = 0;
  int **pp = k ? &a : &b;
  *pp = &x;
  while (a != 0) {
  }
  return 0;
}
