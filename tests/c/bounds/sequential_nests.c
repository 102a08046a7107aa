// Two loop nests one after the other over the inputs n and m: every run
// iterates at most a polynomial in n and m, the sum of the nests' bounds.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  int work = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      work ^= 1;
  for (int k = 0; k < m; k++)
    work ^= 2;
  return work;
}
