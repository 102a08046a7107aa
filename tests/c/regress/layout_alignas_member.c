// expected: nonterminating
// `_Alignas(8)` on a member (a syntax error for lang-c once) puts it at
// offset 8: the struct is 16 bytes, and n stays below 16 forever.
struct s { char c; _Alignas(8) int x; };

int main(void) {
    unsigned long n = 0;
    while (n < sizeof(struct s)) {
        n = n + sizeof(struct s) - 16;
    }
    return 0;
}
