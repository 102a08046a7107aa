// expected: nonterminating
// An address kept in a global pointer by an inlined function, and one in a
// global pointer's initializer.
int *gp;
int g[2] = {5, 5};
int *kept = &g[1];
void keep(int *q) { gp = q; }
int main() {
  int a[2] = {5, 5};
  keep(&a[1]);
  while (a[1] > 0 && g[1] > 0) {
    a[1]--;
    g[1]--;
    *gp = 5;
    *kept = 5;
  }
  return 0;
}
