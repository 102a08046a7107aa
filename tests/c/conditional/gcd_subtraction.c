// inputs: a, b
// weakest precondition: a == b || (a > 0 && b > 0)
// kind: disjunctive
//
// GCD by repeated subtraction with no guard on the inputs.
// a == b: ends at once. a > 0 && b > 0: the classic algorithm, a + b drops
// each step while both stay positive. All other inputs run forever:
//  - one of them 0, the other positive: the positive one has 0 subtracted,
//    the state repeats at once;
//  - one positive, the other negative: the larger (positive) one grows by
//    the magnitude of the negative one every step, forever;
//  - both <= 0 and different (including one of them 0): the first step
//    makes the larger one |a - b| > 0 while the other stays negative, which
//    is the previous case.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  while (a != b) {
    if (a > b)
      a -= b;
    else
      b -= a;
  }
  return a;
}
