// expected: nonterminating
// class: the same loop where the null pointer is never dereferenced
int main(void) {
  volatile int *volatile p = 0;
  volatile int use = 0;
  int n = 0;
  while (1) {
    if (use) *p = n;
    n = 1 - n;
  }
  return 0;
}
