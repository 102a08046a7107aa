// expected: nonterminating
// A global pointer holds the address of a local; external code may write through it (touch() { *gp = 5; }).
extern int __VERIFIER_nondet_int(void);
int *gp;
extern void touch(void);
int main() { int x = __VERIFIER_nondet_int(); gp = &x; while (x > 0) { x--; touch(); } return 0; }
