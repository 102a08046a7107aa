// expected: nonterminating
// class 5: _Bool : 1 and unsigned : 3 promote to int
struct s { _Bool b : 1; unsigned u : 3; } v;
int main(void) {
  v.b = 0;
  v.u = 0;
  if (v.b - 1 < 0 && v.u - 1 < 0) while (1) {}
  return 0;
}
