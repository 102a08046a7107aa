// expected: nonterminating
// The address of x is given to external code as an integer; a later external call may write x through it (keep(long a) { saved = (int *) a; }, touch() { *saved = 5; }).
extern int __VERIFIER_nondet_int(void);
extern void keep(long a);
extern void touch(void);
int main() { int x = __VERIFIER_nondet_int(); keep((long)&x); while (x > 0) { x--; touch(); } return 0; }
