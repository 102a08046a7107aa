// expected: terminating
// The constructor runs before main: g is 1 when the loop is reached.
int g;
__attribute__((constructor)) static void init(void) { g = 1; }
int main(void) { while (g == 0) { } return 0; }
