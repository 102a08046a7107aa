// expected: terminating
// err, errx, quick_exit, pthread_exit and a function declared _Noreturn
// end the program: no loop runs twice.
#include <stdlib.h>
#include <err.h>
#include <pthread.h>
extern int __VERIFIER_nondet_int(void);
_Noreturn void leave(int code);
int main(void) {
  while (1) {
    switch (__VERIFIER_nondet_int()) {
    case 0: err(1, "x");
    case 1: errx(1, "x");
    case 2: quick_exit(0);
    case 3: pthread_exit(0);
    default: leave(2);
    }
  }
  return 0;
}
