// expected: nonterminating
// class 1: `destructor` on the second declarator of a list
void other(void), spin(void) __attribute__((destructor));
void other(void) {}
void spin(void) { volatile int x = 0; while (1) { x++; } }
int main(void) { other(); return 0; }
