// expected: terminating
// expected with --ints math: nonterminating
// class 6: LONG_MIN % -1
#include <limits.h>
int main(void) {
  volatile long m = LONG_MIN, d = -1;
  long r = m % d;
  if (r == 0) while (1) {}
  return 0;
}
