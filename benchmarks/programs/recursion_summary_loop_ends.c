// As recursion_summary_diverges.c, but every call has a positive
// argument: each returns (count(n) == n) and the loop ends, since
// count's result is never negative.
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
    return 0;
}
