// Bitwise operators on two variables and a shift by a variable amount have
// no exact linear encoding: their results are bounded (x & y <= x,
// z >> k <= z / 2 for k >= 1), which is enough to prove termination.
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  unsigned y = __VERIFIER_nondet_uint();
  while (x > 0) {
    x = x & y;
    y = y / 2;
  }
  int k = __VERIFIER_nondet_int();
  unsigned z = __VERIFIER_nondet_uint();
  if (k >= 1 && k < 32) {
    while (z > 0) z = z >> k;
  }
  return 0;
}
