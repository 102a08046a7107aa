// expected: nonterminating
// `aligned(8)` on a member moves it to offset 8 (not 4) and makes the
// struct 16 bytes, not 12: k is never 12. Ignoring the attribute proved
// the loop terminating.
#include <stddef.h>
struct s {
    char c;
    int x __attribute__((aligned(8)));
    char d;
};

int main(void) {
    unsigned long k = 0;
    while (k != 12) {
        k = sizeof(struct s) + offsetof(struct s, x) - 8;
    }
    return 0;
}
