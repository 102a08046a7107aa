// expected: nonterminating
// x is overwritten after its initializer: the loop reads a[1], which is 1.
int main(void) {
  int a[2] = {0, 1};
  unsigned long x = (unsigned long)a;
  x = x + 4UL * (unsigned long)(a[1] == 1);
  x = x * 1;
  while (*(int *)x) {
  }
  return 0;
}
