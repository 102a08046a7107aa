// expected: nonterminating
// w = x + w: the offset added is w's old value (4), so the loop reads a[1].
int main(void) {
  int a[2] = {0, 1};
  unsigned long x;
  unsigned long w = 4;
  x = (unsigned long)a;
  w = x + w;
  while (*(int *)w) {
  }
  return 0;
}
