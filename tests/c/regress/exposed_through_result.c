// expected: nonterminating
// An address returned by a function.
int *same(int *q, int k) { if (k) return q; return q; }
int main() {
  int b[2] = {5, 5};
  int k = __VERIFIER_nondet_int();
  int *s = same(b, k);
  while (b[1] > 0) {
    b[1]--;
    s[1] = 5;
  }
  return 0;
}
