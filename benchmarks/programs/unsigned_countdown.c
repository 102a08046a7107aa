// A recursion on an `int` that counts down through its conversion to
// unsigned: from a negative n it goes down to INT_MIN, wraps to INT_MAX
// and on down to 0. It ends for every n (at most 2^32 - 1 nested calls),
// but no affine function of n ranks it; `(unsigned int) n` does.
extern int __VERIFIER_nondet_int(void);

int depth(int n) {
    if (n == 0)
        return 0;
    int d = depth((int)((unsigned int)n - 1u));
    return d < 100 ? d + 1 : d;
}

int main(void) {
    return depth(__VERIFIER_nondet_int());
}
