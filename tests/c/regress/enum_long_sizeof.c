// expected: terminating
// an enum holding 5000000000 has sizeof 8.
enum E { A = 5000000000, B };
int main() { int x = sizeof(enum E); while (x != 8) {x++;} return 0; }
