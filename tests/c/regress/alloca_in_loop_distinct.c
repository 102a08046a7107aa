// expected: terminating
// two alloca blocks from one site are never equal, so the while(1) is unreachable.
#include <alloca.h>
int main() { int *p = 0, *q = 0; for (int i = 0; i < 2; i++) { q = p; p = alloca(sizeof(int)); }
 if (p == q) { while(1) {} } return 0; }
