// expected: terminating
// The first programs a user tries: print the arguments by index, walk
// argv to its NULL, measure an argument. argv has argc + 1 entries, so
// every walk ends (the model knows the array's size, not its NULL).
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
    int i, n = 0;
    for (i = 1; i < argc; i++)
        printf("%s\n", argv[i]);
    while (*argv) {
        argv++;
        n++;
    }
    if (argc > 1) {
        unsigned long len = strlen(argv[-n + 1]);
        for (unsigned long k = 0; k < len; k++)
            n = n % 7 + 1;
    }
    return n & 1;
}
