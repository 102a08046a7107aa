// expected: nonterminating
// __builtin_object_size does not evaluate its operand.
extern int __VERIFIER_nondet_int(void);
int main() { int x = __VERIFIER_nondet_int(); int a[4]; int *p = a; while (x > 0) { (void)__builtin_object_size(x--, 0); } return 0; }
