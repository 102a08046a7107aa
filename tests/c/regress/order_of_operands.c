// expected: unspecified
// f() + h(): gcc runs f first (terminates); the other order loops: neither YES nor NO holds for every compiler.
int g;
int f(void) { g = g + 1; return 1; }
int h(void) { g = g * 2; return 1; }
int main() { g = 1; int x = f() + h(); if (g == 3) { while (1) {} } return 0; }
