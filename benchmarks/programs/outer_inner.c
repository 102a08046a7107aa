/* An outer loop whose iteration runs an inner loop that raises y: the
   outer loop ranks with lex(x, y) once the inner loop is summarised as
   "x unchanged, y does not fall". */
extern int __VERIFIER_nondet_int(void);
int main() {
    int y = 0, m = __VERIFIER_nondet_int(), x = m;
    while (x >= 0 && y >= 0) {
        if (__VERIFIER_nondet_int()) {
            while (y <= m && __VERIFIER_nondet_int()) {
                y++;
            }
            x--;
        }
        y--;
    }
    return 0;
}
