// inputs: n
// weakest precondition: n <= 1
// kind: nested, modular
//
// For each i below n, the inner loop counts j = i down to 0 in steps of 2
// (it should test j > 0). It ends only for even i >= 0; the first odd index,
// i == 1, is reached iff n >= 2, and then j runs 1, -1, -3, ... forever
// (no state repeats).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int i, j;
  for (i = 0; i < n; i++) {
    j = i;
    while (j != 0) {
      j -= 2;
    }
  }
  return 0;
}
