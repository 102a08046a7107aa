// Nested loops: the inner loop restarts for every outer iteration.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    for (int j = i; j > 0; j--) {
    }
  }
  return 0;
}
