// expected: nonterminating
// class 1: exec replaces the program by one that loops
#include <unistd.h>
int main(void) { execl("/bin/sh", "sh", "-c", "while :; do :; done", (char *)0); return 0; }
