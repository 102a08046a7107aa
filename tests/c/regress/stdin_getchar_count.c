// expected: nonterminating
// Counting lines of standard input: the input may never end (`yes |`).
#include <stdio.h>
int main(void) {
    int c, n = 0;
    while ((c = getchar()) != EOF)
        if (c == '\n')
            n = (n + 1) % 1000;
    printf("%d\n", n);
    return 0;
}
