extern int __VERIFIER_nondet_int(void);

int fact(int n) {
    if (n <= 0)
        return 1;
    return n * fact(n - 1);
}

int main() {
    int n = __VERIFIER_nondet_int();
    return fact(n);
}
