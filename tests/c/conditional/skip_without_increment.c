// inputs: n, skip
// weakest precondition: n <= 0 || skip < 0 || skip >= n
// kind: disjunctive
//
// Sums 0..n-1 leaving out index skip, but the `continue` also skips the
// increment. i visits 0..n-1 in order, so the loop hangs iff skip is one of
// them: 0 <= skip < n. Then at i == skip the state repeats forever.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int skip = __VERIFIER_nondet_int();
  int i = 0;
  int sum = 0;
  while (i < n) {
    if (i == skip)
      continue;
    sum += i;
    i++;
  }
  return sum;
}
