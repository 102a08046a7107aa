// inputs: x, y
// weakest precondition: x <= 0 || y >= 2
// kind: nested
//
// Each round of the outer loop consumes max(y, 0) units in the inner loop
// (which always terminates) and then pays one unit of overhead, so x changes
// by 1 - max(y, 0) per round. With x > 0: y >= 2 makes x drop each round;
// y == 1 leaves x unchanged (the state at the outer loop head repeats);
// y <= 0 makes x grow forever.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x > 0) {
    int k = y;
    while (k > 0) {
      k--;
      x--;
    }
    x++;
  }
  return x;
}
