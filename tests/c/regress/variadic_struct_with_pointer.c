// expected: nonterminating
// A struct holding a pointer passed as an extra argument; the callee writes through its member.
#include <stdarg.h>
extern int __VERIFIER_nondet_int(void);
struct S { int *p; };
void reset(int n, ...) { va_list ap; va_start(ap, n); struct S s = va_arg(ap, struct S); *s.p = 10; va_end(ap); }
int main() { int x = __VERIFIER_nondet_int(); struct S s; s.p = &x; while (x > 0) { x--; reset(1, s); } return 0; }
