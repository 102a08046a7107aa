// A summary that holds only for some arguments: `g(n)` is negative for
// n >= 1 but 1 for n <= 0. From x = 1 the loop goes 1, 2, 1, 2, ...
// forever (g(0) = 1, g(1) = -1). No YES may rest on "g is negative".
extern int __VERIFIER_nondet_int(void);

int g(int n) {
    if (n <= 0)
        return 1;
    return g(n - 1) - 2;
}

int main() {
    int x = __VERIFIER_nondet_int();
    while (x > 0)
        x = x + g(x - 1);
    return 0;
}
