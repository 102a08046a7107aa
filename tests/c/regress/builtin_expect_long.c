// expected: nonterminating
// __builtin_expect returns long: -1L < 0u compares as long (0u converts to long), so f = 1 and the loop spins forever.
int main(void) { int f = (__builtin_expect(-1, 0) < 0u); while (f) { } return 0; }
