// expected: terminating
// `struct __attribute__((aligned(16))) S` (the attribute before the tag)
// and the same after the body: both make the struct 16-aligned, size 16.
struct __attribute__((aligned(16))) before { char c; };
struct after { char c; } __attribute__((aligned(16)));

int main(void) {
    unsigned long n = sizeof(struct before) + _Alignof(struct after);
    while (n != 32) {
    }
    return 0;
}
