// Whether the loop ends is decided by a function the program does not
// define: it may run forever or stop, so neither YES nor NO is justified.
extern int device_ready(void);

int main(void) {
    int tries = 0;
    while (1) {
        if (device_ready() != 0) {
            break;
        }
        tries = tries + 1;
        if (tries > 100) {
            tries = 0;
        }
    }
    return 0;
}
