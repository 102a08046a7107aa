// expected: unspecified
// f(inc(), dbl()): the order of the arguments decides termination.
int g;
int f(int a, int b) { return a - b; }
int inc(void) { g = g + 1; return g; }
int dbl(void) { g = g * 2; return g; }
int main() { g = 1; int x = f(inc(), dbl()); if (g == 3) { while (1) {} } return 0; }
