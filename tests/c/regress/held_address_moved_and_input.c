// expected: nonterminating
// x++ and an input overwrite the address x held; for k == 4 the loop
// reads a[1], which is 1.
extern unsigned long __VERIFIER_nondet_ulong(void);
int main(void) {
  int a[2] = {0, 1};
  unsigned long k = __VERIFIER_nondet_ulong();
  unsigned long x;
  x = (unsigned long)a;
  x++;
  x = x - 1 + (k == 4 ? 4 : 0);
  while (*(int *)x) {
  }
  return 0;
}
