// expected: nonterminating
/* Type punning through a union: the low byte of 256 is 0, so the loop never moves. */
union u { int i; unsigned char b[4]; };
int main(void) {
  union u x;
  x.i = 256;
  int k = 10;
  while (k > 0) k -= x.b[0];
  return 0;
}
