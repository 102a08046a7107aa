// expected: terminating
// Each input picks a different way forward, and every way ends: leaving
// one of them out of the search's strategy must not make the other look
// like a way to run for ever. The inner loop puts a second cut-point in
// the body.
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int c = 0;
  while (c < 8) {
    int k = 0;
    while (k < 2) k++;
    if (__VERIFIER_nondet_int()) c++;
    else c += 2;
  }
  return 0;
}
