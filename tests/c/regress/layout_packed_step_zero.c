// expected: nonterminating
// A packed struct has no padding: sizeof is 5, so the step is 0 and the
// loop never ends. Ignoring `packed` (size 8, step 3) proved it terminating.
struct __attribute__((unused)) plain { char c; int x; };
struct packed { char c; int x; } __attribute__((packed));

int main(void) {
    int i = 0;
    while (i < 100) {
        i += (int)sizeof(struct packed) - 5;
    }
    return 0;
}
