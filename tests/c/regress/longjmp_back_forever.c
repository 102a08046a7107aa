// expected: nonterminating
// longjmp returns into setjmp again and again: not a call that returns.
#include <setjmp.h>
jmp_buf b;
int main(void) {
  setjmp(b);
  longjmp(b, 1);
  return 0;
}
