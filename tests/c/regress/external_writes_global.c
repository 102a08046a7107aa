// expected: nonterminating
// An external function may change any global with external linkage (e.g. touch() { g = 5; }).
extern int __VERIFIER_nondet_int(void);
int g;
extern void touch(void);
int main() { g = __VERIFIER_nondet_int(); while (g > 0) { g--; touch(); } return 0; }
