// Counting down by two through the conversion to unsigned never reaches 0
// from an odd n: the unsigned value stays odd (2^32 is even), so it wraps
// around for ever. Non-terminating for every odd input.
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    while (n != 0)
        n = (int)((unsigned int)n - 2u);
    return 0;
}
