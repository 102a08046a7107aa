// expected: terminating
// `#pragma pack(push, 1)` makes `struct H` 5 bytes (gcc, -m64 and -m32):
// `i` reaches 10. Laid out without the pragma (8 bytes) `i` would have to
// reach 16, which it never does.
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);
#pragma pack(push, 1)
struct H { char c; int x; };
#pragma pack(pop)
struct N { char c; int x; };
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i >= 20 || i % 5 != 0) return 0;
  if (offsetof(struct H, x) != 1 || sizeof(struct N) != 8) return 0;
  while (i != 2 * (int)sizeof(struct H)) i = (i + 5) % 20;
  return 0;
}
