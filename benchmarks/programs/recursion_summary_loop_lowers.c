// The loop in `drop`'s body lowers the result by an input: a call may
// return any value, and `x - drop(3)` need not decrease. No YES.
extern int __VERIFIER_nondet_int(void);

int drop(int a) {
    if (a <= 0)
        return 1;
    int t = drop(a - 1);
    int k = __VERIFIER_nondet_int();
    while (k > 0) {
        t = t - 1;
        k--;
    }
    return t;
}

int main() {
    int x = __VERIFIER_nondet_int();
    while (x > 0)
        x = x - drop(3);
    return 0;
}
