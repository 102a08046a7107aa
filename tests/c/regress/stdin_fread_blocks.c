// expected: nonterminating
// Reading standard input in blocks until it ends: it may not.
#include <stdio.h>
int main(void) {
    char buf[4096];
    size_t k, total = 0;
    while ((k = fread(buf, 1, sizeof buf, stdin)) > 0)
        total = (total + k) % 4096;
    return (int)total;
}
