/* x = x + y; y--: the number of iterations is quadratic in y, so fitting
   affine pieces to iteration counts does not converge; the two-phase
   ranking function (y + 1, x) exists (y falls first, then x). */
extern int __VERIFIER_nondet_int(void);
int main() {
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    while (x > 0) {
        x = x + y;
        y--;
    }
    return 0;
}
