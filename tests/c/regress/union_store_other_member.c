// expected: nonterminating
// Union members overlap: writing one changes the other (never tracked as cells).
union u { int i; unsigned char c[4]; };
int main() {
  union u x;
  x.i = 0;
  while (x.i == 0) { x.c[0] = 0; }
  return 0;
}
