// expected: nonterminating
// class 3: a local of two iterations at one address
#include <stdint.h>
int main(void) {
  uintptr_t prev = 0;
  int n = 0;
  for (int i = 0; i < 3; i++) {
    int x = i;
    if ((uintptr_t)&x == prev) n++;
    prev = (uintptr_t)&x;
  }
  if (n == 2) while (1) {}
  return 0;
}
