// expected: unspecified
// class 3: a local of two calls at one address (gcc -O0 reuses the slot, -O2 folds the comparison)
#include <stdint.h>
static uintptr_t f(void) { int x = 0; return (uintptr_t)&x; }
int main(void) {
  uintptr_t a = f();
  uintptr_t b = f();
  if (a == b) while (1) {}
  return 0;
}
