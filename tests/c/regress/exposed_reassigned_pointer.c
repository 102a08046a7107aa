// expected: nonterminating
// `p` is reassigned, so its base is a variable: a store through it may
// hit `a`, whose address went into `p`.
int main() {
  int a[4] = {5, 5, 5, 5};
  int z[4];
  int *p = z;
  p = a;
  while (a[1] > 0) {
    a[1]--;
    p[1] = 5;
  }
  return 0;
}
