// Does not terminate: from x == -y it stops, from any other state with y == 0
// it stays (x + 2 * y == x). Its NO witness should read with small values.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  while (x + y != 0) {
    x = x + 2 * y;
    y = -y;
  }
  return 0;
}
