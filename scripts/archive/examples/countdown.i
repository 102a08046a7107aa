# 1 "countdown.c"
int main(void) {
    int x = 10;
    while (x > 0) {
        x--;
    }
    return 0;
}
