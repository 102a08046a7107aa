// expected: nonterminating
// sizeof("abc") is 4 (the array includes the terminating NUL), so f = 1 and the loop spins forever.
int main(void) { int f = (sizeof("abc") == 4); while (f) { } return 0; }
