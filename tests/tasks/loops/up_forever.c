/* Does not terminate: x and y move together and never meet. */
int main(void) {
    int x = 0;
    int y = 9;
    while (x != y) {
        x++;
        y++;
    }
    return 0;
}
