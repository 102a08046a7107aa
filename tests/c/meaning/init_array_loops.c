// expected: nonterminating
// class 1: a function pointer in the section the loader runs
static void spin(void) { while (1) {} }
static void (*hook)(void) __attribute__((section(".init_array"), used)) = spin;
int main(void) { return 0; }
