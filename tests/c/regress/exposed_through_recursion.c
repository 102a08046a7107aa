// expected: nonterminating
// An address passed down a recursion.
void deep(int *q, int n) { if (n > 0) deep(q, n - 1); else *q = 5; }
int main() {
  int c[2] = {5, 5};
  while (c[1] > 0) {
    c[1]--;
    deep(&c[1], 3);
  }
  return 0;
}
