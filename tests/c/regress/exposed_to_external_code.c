// expected: nonterminating
// An external function is given the address and hands it back; an integer
// made from an address becomes a pointer again.
extern int *keep(int *p);
int main() {
  int a[2] = {5, 5};
  int b[2] = {5, 5};
  int *q = keep(a);
  long k = (long)b;
  int *r = (int *)k;
  if (q != a) return 0;
  if (r != b) return 0;
  while (a[1] > 0 && b[1] > 0) {
    a[1]--;
    b[1]--;
    q[1] = 5;
    r[1] = 5;
  }
  return 0;
}
