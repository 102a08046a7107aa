// expected: nonterminating
// class 1: `constructor` on a declaration, not the definition
void spin(void) __attribute__((constructor));
void spin(void) { while (1) {} }
int main(void) { return 0; }
