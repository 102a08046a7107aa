# 1 "sum.c"
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += i;
    }
    return s;
}
