/* C division truncates toward zero; the remainder has the dividend's sign. */
extern int __VERIFIER_nondet_int(void);

int main() {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    int q = a / b;
    int r = a % b;
    int h = a / 2;
    int m = a % 4;
    int shr = a >> 1;
    int low = a & 7;
    int shl = a << 3;
    int inv = ~a;
    return 0;
}
