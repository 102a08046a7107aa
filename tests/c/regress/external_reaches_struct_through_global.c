// expected: nonterminating
// A global pointer to a global struct: external code may write the struct (touch() { gp->v = 5; }).
extern int __VERIFIER_nondet_int(void);
struct N { int v; } node;
struct N *gp = &node;
extern void touch(void);
int main() { node.v = __VERIFIER_nondet_int(); while (node.v > 0) { node.v--; touch(); } return 0; }
