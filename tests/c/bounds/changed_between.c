// `n` changes between the two loops: the second loop's bound reads the new
// value, so no bound over the value `n` had when the first loop started is
// given for the whole run.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int work = 0;
  for (int i = 0; i < n; i++)
    work ^= 1;
  n = n * 2;
  for (int k = 0; k < n; k++)
    work ^= 2;
  return work;
}
