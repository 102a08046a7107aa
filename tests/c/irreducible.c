extern int __VERIFIER_nondet_int(void);

int main() {
    int x = __VERIFIER_nondet_int();
    if (x > 5)
        goto inside;
    while (x < 10) {
inside:
        x++;
    }
    return 0;
}
