// A recursive function with a loop in its body: count(a) == a for a >= 0.
// The loop after the call in main is never entered, since every call
// that returns gives at least its argument (the inner loop only counts a
// copy down).
extern int __VERIFIER_nondet_int(void);

int count(int a) {
    if (a == 0)
        return 0;
    int r = count(a - 1);
    int c = r;
    while (c > 0)
        c--;
    return r + 1;
}

int main() {
    int i = __VERIFIER_nondet_int();
    if (i <= 0)
        return 0;
    int r = count(i);
    while (r < 1)
        ;
    return 0;
}
