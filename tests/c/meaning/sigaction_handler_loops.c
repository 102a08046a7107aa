// expected: nonterminating
// class 1: a handler installed through struct sigaction, then raised
#include <signal.h>
#include <string.h>
static void handler(int s) { (void)s; while (1) {} }
int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigaction(SIGINT, &sa, 0);
  raise(SIGINT);
  return 0;
}
