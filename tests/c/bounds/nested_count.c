// Two nested counting loops: the outer runs n times, the inner i times on
// its i-th entry.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int work = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      work++;
    }
  }
  return work;
}
