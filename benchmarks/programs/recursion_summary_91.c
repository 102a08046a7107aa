// McCarthy's 91 function: the outer call descends with what the inner
// call returned, so the recursion's ranking function 101 - x needs a
// summary of the result (every call that returns gives at least x - 10).
extern int __VERIFIER_nondet_int(void);

int f(int x) {
    if (x > 100)
        return x - 10;
    return f(f(x + 11));
}

int main() {
    return f(__VERIFIER_nondet_int());
}
