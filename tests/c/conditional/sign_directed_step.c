// inputs: x, y
// weakest precondition: x == 0 || (y > 0 && x % y == 0)
// kind: modular, disjunctive
//
// Steps x towards zero by y from either side until it is exactly zero.
// y > 0: x moves towards 0 by y; if y divides x it lands on 0, otherwise it
// overshoots and then bounces inside (-y, y) forever (values bounded: the
// state repeats). y == 0, x != 0: the state repeats at once. y < 0, x != 0:
// x moves away from zero forever (no state repeats).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x != 0) {
    if (x > 0)
      x = x - y;
    else
      x = x + y;
  }
  return 0;
}
