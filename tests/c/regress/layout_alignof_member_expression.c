// expected: nonterminating
// `__alignof__` of an expression: a member's own alignment (16 from its
// attribute, 1 in a packed struct), a variable's declared one (64).
struct s { char c; int x __attribute__((aligned(16))); } s;
struct p { char c; int x; } __attribute__((packed)) p;

int main(void) {
    int v __attribute__((aligned(64))) = 0;
    unsigned long n = __alignof__(s.x) + __alignof__(p.x) + __alignof__(v) + __alignof__ (int);
    while (n == 85) {
    }
    return 0;
}
