// expected: nonterminating
// Echoing standard input line by line: the input may never end.
#include <stdio.h>
int main(void) {
    char buf[256];
    while (fgets(buf, sizeof buf, stdin) != NULL)
        fputs(buf, stdout);
    return 0;
}
