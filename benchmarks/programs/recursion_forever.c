// The example: rec(0, 1) calls rec(0, 1) again, forever; every
// other start leaves the range or reaches such a cycle or not.
extern int __VERIFIER_nondet_int(void);

void rec(int x, int y) {
    if (x < -42 || x > 23)
        return;
    rec(2 * y - 2, x + 1);
}

int main() {
    rec(__VERIFIER_nondet_int(), __VERIFIER_nondet_int());
    return 0;
}
