// expected: terminating
// Bit-fields in a packed struct follow one another with no unit
// boundaries: 8 + 3 + 30 bits take 6 bytes.
struct __attribute__((packed)) flags { char a; int b : 3; int c : 30; };

int main(void) {
    int i = 0;
    while (i != 60) {
        i += (int)sizeof(struct flags);
    }
    return 0;
}
