// expected: nonterminating
// The va_list is handed to a helper that reads the pointer with va_arg.
#include <stdarg.h>
extern int __VERIFIER_nondet_int(void);
void vreset(va_list ap) { int *p = va_arg(ap, int *); *p = 10; }
void reset(int n, ...) { va_list ap; va_start(ap, n); vreset(ap); va_end(ap); }
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { x--; reset(1, &x); } return 0; }
