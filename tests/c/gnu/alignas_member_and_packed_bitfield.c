// expected: terminating
// `_Alignas` on a member, a bit-field in a packed struct, `_Alignas(type)`.
struct a { char c; _Alignas(8) int x; _Alignas(short) char d; };
struct __attribute__((packed)) b { char c; int bits : 3; };

int main(void) {
    unsigned long n = sizeof(struct a) + sizeof(struct b);
    while (n != 18) {
    }
    return 0;
}
