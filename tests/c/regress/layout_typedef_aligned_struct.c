// expected: terminating
// An aligned typedef of a struct keeps its size (40) but aligns to 32: a
// member of that type sits at offset 32 of a 96-byte struct.
typedef struct { char c[40]; } block __attribute__((aligned(32)));
typedef int wide_int __attribute__((aligned(8)));
struct holder { char c; block b; };
struct pair { char c; wide_int x; };

int main(void) {
    unsigned long n = sizeof(struct holder) + sizeof(block) + sizeof(struct pair);
    while (n != 96 + 40 + 16) {
    }
    return 0;
}
