// expected: terminating
// __builtin_choose_expr evaluates only the operand its constant chooses: x++ never runs.
extern int __VERIFIER_nondet_int(void);
int main() { int x = __VERIFIER_nondet_int(); while (x > 0) { x--; (void)__builtin_choose_expr(1, 0, x++); } return 0; }
