// expected: nonterminating
// A variadic function writes through a pointer it reads with va_arg: the caller's address escapes through the extra arguments.
#include <stdarg.h>
extern int __VERIFIER_nondet_int(void);
void reset(int n, ...) { va_list ap; va_start(ap, n); int *p = va_arg(ap, int *); *p = 10; va_end(ap); }
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { x--; reset(1, &x); } return 0; }
