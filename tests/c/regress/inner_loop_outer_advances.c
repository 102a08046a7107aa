// expected: terminating
// A loop with an inner loop whose counter advances on every path, reached
// only through the inner loop: a recurrent set search must not hold it.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int count = 0;
  while (count < 4) {
    int k = 0;
    while (k < 3 && __VERIFIER_nondet_int()) k++;
    count++;
  }
  return 0;
}
