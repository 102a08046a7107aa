// expected: nonterminating
// A destructor runs after main returns, and never ends.
__attribute__((destructor)) static void fin(void) { while (1) { } }
int main(void) { return 0; }
