extern int __VERIFIER_nondet_int(void);

int calls;

int twice(int x) {
    int y = x * 2;
    calls++;
    return y;
}

int main() {
    int x = __VERIFIER_nondet_int();
    int a = twice(x);
    int b = twice(a + 1);
    int r = 0;
    if (x > 0 && twice(x) > 10)
        r = 1;
    return r;
}
