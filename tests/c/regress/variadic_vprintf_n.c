// expected: nonterminating
// A variadic wrapper hands its va_list to vprintf with a %n format: the pointer argument is written.
#include <stdarg.h>
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
void say(const char *f, ...) { va_list ap; va_start(ap, f); vprintf(f, ap); va_end(ap); }
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { x--; say("ab%n", &x); } return 0; }
