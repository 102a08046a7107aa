// expected: terminating
// A goto into the loop body; x grows to 10 either way.
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    if (x > 5)
        goto inside;
    while (x < 10) {
        x++;
inside:
        x++;
    }
    return 0;
}
