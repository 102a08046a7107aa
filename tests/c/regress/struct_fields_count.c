// expected: nonterminating
// Struct members are separate cells; a store to one member leaves the other.
struct pair { int a; long b; char c; };
int main() {
  struct pair p = { 5, 7 };
  while (p.a > 0) { p.b = p.b - 1; if (p.b < 0) p.a--; p.b = 3; }
  return sizeof(struct pair);
}
