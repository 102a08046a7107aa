// inputs: x, y
// weakest precondition: (y % 2 != 0 || x % 2 == 0) && (y % 3 != 0 || x % 3 == 0)
// kind: modular
//
// Advances an offset x by a stride y until it is a multiple of 6.
// x + k*y == 0 (mod 6) has a solution k >= 0 iff it has an integer one,
// iff gcd(y, 6) divides x, i.e. (2 | y implies 2 | x) and (3 | y implies
// 3 | x); this includes y == 0 (then 6 | x). Otherwise x mod gcd(y, 6) stays
// non-zero: with y == 0 the state repeats at once, else x moves by y forever
// (no state repeats). (C's % truncates, but only `== 0` / `!= 0` is used.)
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x % 6 != 0) {
    x = x + y;
  }
  return x;
}
