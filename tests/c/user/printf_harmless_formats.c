// expected: terminating
// Formats that write nothing: "%%n" prints a percent sign and an n, "\n" is a newline.
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  while (x > 0) {
    x--;
    printf("100%%n of %d\n", x);
    printf("%%" "n\n");
  }
  return 0;
}
