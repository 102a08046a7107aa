# 1 "up_forever.c"
int main(void) {
    int x = 5;
    while (x > 0) {
        if (x < 10)
            x++;
        else
            x = 5;
    }
    return 0;
}
