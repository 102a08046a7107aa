// terminating: a list walked by reading its link at the link's byte offset
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

struct rec {
  long payload;
  struct rec *link;
};

int main(void) {
  struct rec *top = NULL;
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    struct rec *r = malloc(sizeof(struct rec));
    if (r == NULL) return 0;
    r->payload = i;
    r->link = top;
    top = r;
  }
  size_t at = offsetof(struct rec, link);
  char *q = (char *)top;
  while (q != NULL)
    q = (char *)*(struct rec **)(q + at);
  return 0;
}
