/* Wrap-around: what the machine does, and what mathematical integers do. */
int main() {
    int big = 2147483647;
    int over = big + 1;
    unsigned char c = 250;
    c += 10;
    unsigned int minus_one = -1;
    signed char narrow = (signed char) 200;
    unsigned int u = 0;
    u--;
    long widened = big + 1L;
    _Bool b = 256;
    return 0;
}
