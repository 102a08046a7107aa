// expected: nonterminating
// An address stored in memory (an array of pointers, a struct member) comes
// back as an unknown pointer that may hit the block.
struct holder { int *p; };
int main() {
  int a[2] = {5, 5};
  int *table[2];
  struct holder h;
  table[0] = a;
  h.p = &a[1];
  while (a[1] > 0) {
    a[1]--;
    table[0][1] = 5;
    a[1]--;
    *h.p = 5;
  }
  return 0;
}
