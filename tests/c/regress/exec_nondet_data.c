// expected: terminating
#include <stdlib.h>
extern short __VERIFIER_nondet_short(void);
struct rec { int id; short cookie; struct rec *next; };
int main(void) {
  struct rec *h = 0; int sum = 0;
  for (int i = 0; i < 10; i++) {
    struct rec *r = malloc(sizeof *r);
    if (!r) exit(-1);
    r->id = i; r->cookie = __VERIFIER_nondet_short(); sum += r->cookie;
    r->next = h; h = r;
  }
  int n = 0;
  for (struct rec *p = h; p; p = p->next) n += p->id;
  return n + (sum & 0);
}
