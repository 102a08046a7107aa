// expected: nonterminating
// the recursive callee's base case sets *counter = 10 through a global pointer.
#include <stdlib.h>
int *counter;
int r(int n) { if (n <= 0) { *counter = 10; return 0; } return r(n - 1); }
int main() { counter = malloc(sizeof(int)); if (!counter) return 0; *counter = 5;
 while (*counter > 0) { (*counter)--; r(2); } return 0; }
