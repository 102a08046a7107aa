// A loop inside a called function whose local `i` shares its name with
// main's `i`, which is live across the call: at the callee's loop, `i` in
// a witness must mean the callee's `i`.
extern int __VERIFIER_nondet_int(void);

int count(int n) {
    int i = 0;
    while (i < n) {
        i++;
    }
    return i;
}

int main(void) {
    int i = __VERIFIER_nondet_int();
    int n = __VERIFIER_nondet_int();
    int s = count(n);
    while (i < s) {
        i++;
    }
    return 0;
}
