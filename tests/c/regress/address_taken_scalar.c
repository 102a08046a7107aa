// expected: terminating
// A scalar whose address is taken is written through the pointer.
static void down(int *p) { *p = *p - 2; }
int main() {
  int x = __VERIFIER_nondet_int();
  if (x > 1000000) return 0;
  while (x > 0) down(&x);
  return 0;
}
