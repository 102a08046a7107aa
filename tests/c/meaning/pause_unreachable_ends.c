// expected: terminating
// class 1: a call that may never return, on no run
#include <unistd.h>
int main(void) {
  int x = 3;
  for (int i = 0; i < x; i++) {}
  if (x > 5) pause();
  return 0;
}
