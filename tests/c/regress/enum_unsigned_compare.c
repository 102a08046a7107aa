// expected: terminating
// A = 0x80000000 is unsigned int, so A - 1 < 0 is false.
enum E { A = 0x80000000, B };
int main() { long x = sizeof(enum E); if (A - 1 < 0) { while(1){} } return 0; }
