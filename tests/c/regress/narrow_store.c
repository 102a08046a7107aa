// expected: terminating
// A char store into an int: *a becomes 0 (little-endian 256 = 0x100), the loop never runs.
#include <stdlib.h>
int main() { int *a = malloc(sizeof(int)); if (!a) return 0; *a = 256; ((char *)a)[1] = 0; while (*a != 0) {} return 0; }
