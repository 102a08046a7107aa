// expected: terminating
// An attribute between `struct` and the tag of a struct not defined there.
struct __attribute__((packed)) later;
struct later { char c; int x; };

int main(void) {
    unsigned long n = sizeof(struct later);
    while (n != 8) {
    }
    return 0;
}
