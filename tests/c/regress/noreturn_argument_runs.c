// expected: nonterminating
// the arguments of __assert_fail run first, and spin() never returns.
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
int spin(void) { while (1) {} return 0; }
int main() { __assert_fail("x", "f", spin(), "g"); return 0; }
