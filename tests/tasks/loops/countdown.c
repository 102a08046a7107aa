/* Terminates: x decreases to 0. */
int main(void) {
    int x = 10;
    while (x > 0) {
        x--;
    }
    return 0;
}
