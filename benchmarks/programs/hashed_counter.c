// expected: YES
// A loop counter whose address is taken twice: a hash reads its bytes
// through an `unsigned char *`, and `memcmp` compares it with a key. The
// loop also stores through pointers into a heap block. No store can reach
// `i`: its address stays in variables (and `memcmp` only reads), so the
// counter keeps counting up to `n`.
#include <stdlib.h>
#include <string.h>

extern int __VERIFIER_nondet_int(void);

struct entry {
  unsigned hash;
  int matches;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  int key = __VERIFIER_nondet_int();
  if (n > 1000)
    return 0;
  struct entry *e = malloc(sizeof *e);
  if (e == NULL)
    return 0;
  e->hash = 0;
  e->matches = 0;
  int i;
  for (i = 0; i < n; i++) {
    const unsigned char *bytes = (const unsigned char *)&i;
    unsigned h = 0;
    for (unsigned k = 0; k < sizeof i; k++)
      h = h * 31u + bytes[k];
    e->hash ^= h;
    if (memcmp(&i, &key, sizeof i) == 0)
      e->matches++;
  }
  int m = e->matches;
  free(e);
  return m;
}
