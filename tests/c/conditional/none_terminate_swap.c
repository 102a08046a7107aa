// inputs: x, d
// weakest precondition: 0
// kind: none-terminate
//
// A turn loop that waits for the two tokens to be equal, but each turn only
// swaps them. y - x starts as d * d + 1 >= 1, and swapping only flips its
// sign, so x != y always holds: every run repeats its state after two
// steps. No input terminates.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int d = __VERIFIER_nondet_int();
  int y = x + d * d + 1;
  while (x != y) {
    int t = x;
    x = y;
    y = t;
  }
  return 0;
}
