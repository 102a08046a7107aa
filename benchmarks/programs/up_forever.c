// Non-terminating for every positive start: x climbs to 100 and stays there
// (the same under machine and mathematical integers).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x > 0) {
    if (x < 100)
      x = x + 1;
  }
  return 0;
}
