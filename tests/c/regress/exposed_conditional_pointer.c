// expected: nonterminating
// A pointer chosen by `?:` names both blocks in its base.
int main() {
  int a[2] = {5, 5};
  int b[2] = {0, 0};
  int c = __VERIFIER_nondet_int();
  while (a[1] > 0) {
    a[1]--;
    *(c ? &a[1] : &b[1]) = 5;
    *(c ? &b[1] : &a[1]) = 5;
  }
  return 0;
}
