// expected: terminating
// sizeof(L"ab") == 12 and sizeof("a\n\x41") == 4.
int main() { int n = sizeof(L"ab"); while (n != 12) { n++; } int m = sizeof("a\n\x41"); while (m != 4) {m++;} return 0; }
