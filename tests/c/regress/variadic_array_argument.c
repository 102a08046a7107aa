// expected: nonterminating
// An array passed as an extra argument decays to a pointer the callee writes through.
#include <stdarg.h>
extern int __VERIFIER_nondet_int(void);
void reset(int n, ...) { va_list ap; va_start(ap, n); int *p = va_arg(ap, int *); p[1] = 10; va_end(ap); }
int main() { int a[2]; a[1] = __VERIFIER_nondet_int(); while (a[1] > 0) { a[1]--; reset(1, a); } return 0; }
