// A reactive program whose one way to go on for ever is a sequence of ten
// right inputs (as in eca-rers2012's Problem14, where the run that never
// ends needs a 16-step stem): each step reads an input 1..6; the right one
// advances the phase, any other dooms the run, which then wanders through
// new states (x grows) for a thousand steps before it ends. After the
// tenth phase input 3 leaves the state as it is, for ever.
// Random runs almost never get through (1 in 6^10) and never come back to
// a state on their way into a doomed one; a systematic search that does
// not search a doomed path deeper than needed finds the lasso at once.
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int phase = 0, x = 7, doomed = 0;
    while (1) {
        int input = __VERIFIER_nondet_int();
        if (input < 1 || input > 6) return 0;
        if (doomed) {
            x = x + 3;
            if (x > 5000) return 0;
        } else if (phase < 10) {
            if (input == (phase * 5 + x) % 6 + 1) {
                phase = phase + 1;
                x = (x * 7 + 11) % 1000;
            } else {
                doomed = 1;
            }
        } else if (input != 3) {
            return 0;
        }
    }
}
