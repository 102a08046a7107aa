// inputs: n
// weakest precondition: n >= 0 && n % 2 == 0
// kind: modular
//
// Visits the even indices below n, but the loop test is `!=` instead of `<`.
// Why the other inputs run forever: i takes the values 0, 2, 4, ... only, so
// i == n is reached only for a non-negative even n. For a negative or odd n,
// i (and count) grow forever; no state repeats.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int count = 0;
  int i;
  for (i = 0; i != n; i += 2) {
    count++;
  }
  return count;
}
