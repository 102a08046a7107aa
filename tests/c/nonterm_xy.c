/* The paper's non-terminating example: x and y never meet. */
int main() {
    int x = 0, y = 9;
    while (x != y) {
        x++;
        y++;
    }
    return 0;
}
