// expected: nonterminating
// __builtin_constant_p does not evaluate its operand: x-- never runs.
extern int __VERIFIER_nondet_int(void);
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { (void)__builtin_constant_p(x--); } return 0; }
