// expected: terminating
// Every call of `down` ends the program at depth n (abort): the loop in
// main never gets a second round. A model whose recursive call may simply
// return loops forever here; no NO may rest on that return.
extern void abort(void);

void down(int n) {
    if (n <= 0)
        abort();
    down(n - 1);
}

int main() {
    while (1)
        down(3);
    return 0;
}
