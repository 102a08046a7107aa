// Does not terminate: x stays 1. The temporary t is written before it is
// read in every iteration, so a recurrent set need not (and a witness
// should not) say anything about it.
int main(void) {
    int x = 1, t = 0;
    while (x > 0) {
        t = x * 3;
        x = t - 2 * x;
    }
    return 0;
}
