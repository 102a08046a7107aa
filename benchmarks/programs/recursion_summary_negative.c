// The loop in main ends because `down` always returns a negative value:
// a summary of the recursive function's result.
extern int __VERIFIER_nondet_int(void);

int down(int n) {
    if (n <= 0)
        return -1;
    return down(n - 1) - 1;
}

int main() {
    int x = __VERIFIER_nondet_int();
    while (x > 0)
        x = x + down(x);
    return 0;
}
