// expected: nonterminating
// oracle: -O2
// class 4: the same call again (at -O0 the stack overflows; -O2 makes it a loop)
#include <stdint.h>
static void rec(uintptr_t a) {
  if (*(int *)a > 5) return;
  rec(a);
}
int main(void) { int c = 0; rec((uintptr_t)&c); return 0; }
