// expected: nonterminating
// Summing the numbers of standard input: `yes 0 |` never ends.
#include <stdio.h>
int main(void) {
    int x, sum = 0;
    while (scanf("%d", &x) == 1)
        sum = (sum + x % 10) % 100;
    printf("%d\n", sum);
    return 0;
}
