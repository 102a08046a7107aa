// Ackermann's function called with any first argument: a negative `m`
// never reaches 0, so the recursion never ends (with mathematical integers;
// with C's `int`, `m - 1` overflows after 2^31 calls, which is undefined).
extern int __VERIFIER_nondet_int(void);

int ack(int m, int n) {
  if (m == 0)
    return n + 1;
  if (n == 0)
    return ack(m - 1, 1);
  return ack(m - 1, ack(m, n - 1));
}

int main(void) {
  int m = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  if (n < 0)
    return 0;
  return ack(m, n);
}
