// inputs: x
// weakest precondition: 0
// kind: none-terminate
//
// Meant to wrap x into 0..9 while it is out of range, i.e. to loop while
// !(x >= 0 && x <= 9); the negation was botched into x >= 0 || x <= 9,
// which holds for every x. From any start x moves by 10 into 0..9, and
// from there alternates between v and v + 10: the state repeats.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x >= 0 || x <= 9) {
    if (x > 9)
      x -= 10;
    else
      x += 10;
  }
  return x;
}
