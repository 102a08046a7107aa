// expected: terminating
// class 4: the callee changes the caller's local through an address held in an integer
#include <stdint.h>
static void rec(uintptr_t a) {
  if (*(int *)a > 5) return;
  (*(int *)a)++;
  rec(a);
}
int main(void) { int c = 0; rec((uintptr_t)&c); return 0; }
