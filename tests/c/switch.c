extern int __VERIFIER_nondet_int(void);

int main() {
    int x = __VERIFIER_nondet_int();
    int y = 0;
    switch (x) {
    case 1:
        y += 1;
    case 2:
        y += 10;
        break;
    case 3 ... 5:
        y = 100;
        break;
    default:
        y = -1;
    case 7:
        y += 1000;
    }
    return y;
}
