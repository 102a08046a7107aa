// expected: nonterminating
/* A call through a function pointer chosen by a computed index; one of them never returns. */
static int f0(int x) { return x - 1; }
static int f1(int x) { while (x == x) { } return x; }
int main(void) {
  int (*tab[2])(int) = { f0, f1 };
  int s = 0;
  for (int i = 0; i < 2; i++) s += tab[i](3);
  return s;
}
