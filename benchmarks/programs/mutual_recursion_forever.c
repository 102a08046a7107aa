// Mutual recursion: f(a, b) with a <= b calls g(b, a), which calls
// f(b - 1, a + 1) = f(a, b) again when b = a + 1.
extern int __VERIFIER_nondet_int(void);

void g(int a, int b);

void f(int a, int b) {
    if (a > b)
        return;
    g(b, a);
}

void g(int a, int b) {
    if (a < b)
        return;
    f(a - 1, b + 1);
}

int main() {
    f(__VERIFIER_nondet_int(), __VERIFIER_nondet_int());
    return 0;
}
