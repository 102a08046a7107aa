extern int __VERIFIER_nondet_int(void);

int main() {
    int n = __VERIFIER_nondet_int();
    int i, j, sum = 0;
    for (i = 0; i < n; i++) {
        j = 0;
        while (j < i) {
            if (j == 3)
                break;
            j++;
            sum += j;
        }
    }
    do {
        n--;
    } while (n > 0);
    return sum;
}
