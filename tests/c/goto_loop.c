extern int __VERIFIER_nondet_int(void);

int main() {
    int i = __VERIFIER_nondet_int();
    int s = 0;
again:
    if (i > 0) {
        s = s + i;
        i = i - 1;
        goto again;
    }
    return s;
}
