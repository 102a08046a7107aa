// The recursion climbs to 11 and then spins in a loop inside the deepest
// call: the loop is reached only through calls that have not returned.
extern int __VERIFIER_nondet_int(void);

int climb(int n) {
    if (n > 10) {
        while (n > 0) {
            n = n + 0;
        }
        return 0;
    }
    return climb(n + 1);
}

int main() {
    return climb(__VERIFIER_nondet_int());
}
