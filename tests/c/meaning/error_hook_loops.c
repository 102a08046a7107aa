// expected: nonterminating
// class 1: a glibc hook the library calls
#include <error.h>
static void prog(void) { while (1) {} }
int main(void) {
  error_print_progname = prog;
  error(0, 0, "hello");
  return 0;
}
