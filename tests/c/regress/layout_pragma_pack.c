// expected: terminating
// `#pragma pack(1)` removes the padding (sizeof 5); Tessera refuses it
// rather than answer with the unpacked size 8.
#pragma pack(1)
struct s { char c; int x; };
#pragma pack()

int main(void) {
    unsigned long n = sizeof(struct s);
    while (n != 5) {
    }
    return 0;
}
