# 1 "up_forever.c"
int main(void) {
    int x = 0;
    int y = 9;
    while (x != y) {
        x++;
        y++;
    }
    return 0;
}
