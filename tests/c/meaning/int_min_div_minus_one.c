// expected: terminating
// class 6: INT_MIN / -1 traps under --ints machine (it wrapped to INT_MIN: a wrong NO)
#include <limits.h>
int main(void) {
  volatile int m = INT_MIN, d = -1;
  int r = m / d;
  while (r < 0) {}
  return 0;
}
