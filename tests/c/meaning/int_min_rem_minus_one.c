// expected: terminating
// expected with --ints math: nonterminating
// class 6: INT_MIN % -1 is undefined (c: the run ends) and traps on x86 (machine); exact 0 with math
#include <limits.h>
int main(void) {
  volatile int m = INT_MIN, d = -1;
  int r = m % d;
  if (r == 0) while (1) {}
  return 0;
}
