// expected: nonterminating
// x += 4 overwrites the address x held: the loop reads a[1], which is 1.
int main(void) {
  int a[2] = {0, 1};
  unsigned long x = 0;
  x = (unsigned long)a;
  x += 4;
  while (*(int *)x) {
  }
  return 0;
}
