// expected: nonterminating
// __builtin_classify_type does not evaluate its operand.
extern int __VERIFIER_nondet_int(void);
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { (void)__builtin_classify_type(x--); } return 0; }
