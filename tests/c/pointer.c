int main() {
    int x = 5;
    int *p = &x;
    while (*p > 0) {
        (*p)--;
    }
    return 0;
}
