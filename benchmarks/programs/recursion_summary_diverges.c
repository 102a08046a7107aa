// `count(n)` returns n for n >= 0 and never returns for n < 0 (with
// mathematical integers): every call that returns gives a result >= 0,
// but main may call it with a negative argument. Not terminating.
extern int __VERIFIER_nondet_int(void);

int count(int n) {
    if (n == 0)
        return 0;
    return count(n - 1) + 1;
}

int main() {
    int x = __VERIFIER_nondet_int();
    while (x > 0)
        x = x - 1 - count(x);
    return count(x);
}
