// expected: terminating
// _Alignof gives the alignment (1 for three chars), not the size (3):
// Tessera once computed sizeof here and found the loop endless.
struct three { char c[3]; };

int main(void) {
    unsigned long n = _Alignof(struct three);
    while (n != 1) {
    }
    return 0;
}
