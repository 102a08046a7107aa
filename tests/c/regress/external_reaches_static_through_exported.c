// expected: nonterminating
// A static global reachable through an exported pointer chain: external code may write it (touch() { **exported = 5; }).
extern int __VERIFIER_nondet_int(void);
static int s;
static int *sp = &s;
int **exported = &sp;
extern void touch(void);
int main() { s = __VERIFIER_nondet_int(); while (s > 0) { s--; touch(); } return 0; }
