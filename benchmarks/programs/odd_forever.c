// Does not terminate: y starts odd and grows by an even amount (modulo
// 2^32), so it is never 0. With the inputs 0, y stays 1.
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
int main(void) {
  unsigned int y = 1;
  while (1) {
    y = y + 2u * __VERIFIER_nondet_uint();
    if (y == 0) abort();
  }
  return 0;
}
