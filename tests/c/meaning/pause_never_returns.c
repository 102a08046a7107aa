// expected: nonterminating
// class 1: a library call that never returns (no signal comes)
#include <unistd.h>
int main(void) { pause(); return 0; }
