// inputs: x, y, z
// weakest precondition: x >= y || z > 0
// kind: linear
//
// Moves x towards the bound y with stride z (meant to be positive).
// Why the other inputs run forever (x < y && z <= 0): with z == 0 the state
// repeats at once; with z < 0, x decreases forever and stays below y
// (diverges without repeating).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int z = __VERIFIER_nondet_int();
  while (x < y) {
    x = x + z;
  }
  return x;
}
