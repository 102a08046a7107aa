// expected: terminating
// A packed enumeration is one byte; Tessera does not model that and must
// not answer as if it were four.
enum small { A, B } __attribute__((packed));

int main(void) {
    unsigned long n = sizeof(enum small);
    while (n != 1) {
    }
    return 0;
}
