// Does not terminate when every index is in range. The array is too large
// to track cell by cell, so the read after the loop is an unknown value:
// it cannot matter for the loop, which no run reaches again after it.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
unsigned int a[100000];
int main(void) {
  unsigned int t = 0;
  while (1) {
    unsigned int i = __VERIFIER_nondet_uint();
    if (i >= 100000) break;
    a[i] = i;
    t = i;
  }
  if (a[t] != t) abort();
  return 0;
}
