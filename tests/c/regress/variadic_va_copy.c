// expected: nonterminating
// The pointer is read from a va_copy of the argument list.
#include <stdarg.h>
extern int __VERIFIER_nondet_int(void);
void reset(int n, ...) { va_list ap, aq; va_start(ap, n); va_copy(aq, ap); int *p = va_arg(aq, int *); *p = 10; va_end(aq); va_end(ap); }
int g;
int main() { g = __VERIFIER_nondet_int(); while (g > 0) { g--; reset(1, &g); } return 0; }
