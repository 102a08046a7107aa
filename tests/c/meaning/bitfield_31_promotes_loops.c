// expected: nonterminating
// class 5: an unsigned bit-field of 31 bits promotes to int
struct s { unsigned u : 31; } v;
int main(void) {
  v.u = 0;
  if (v.u - 1 < 0) while (1) {}
  return 0;
}
