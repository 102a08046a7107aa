// expected: nonterminating
// A goto into the loop body; every entry keeps x positive.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x > 100)
        goto inside;
    while (x > 0) {
        x = x - 1;
inside:
        x = x + 1;
    }
    return 0;
}
