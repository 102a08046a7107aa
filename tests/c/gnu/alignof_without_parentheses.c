// expected: terminating
// gcc's `__alignof__ expr` takes an expression without parentheses.
int main(void) {
    long x = 0;
    unsigned long n = __alignof__ x;
    while (n != 8) {
    }
    return (int)x;
}
