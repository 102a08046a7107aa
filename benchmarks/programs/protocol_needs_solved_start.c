// A sequentialized protocol in the style of SV-COMP's seq-mthreaded (pals):
// the start assumes conditions on several inputs that random choice
// practically never meets (one equal to an expression of another), then
// two processes take turns for ever: a counter wraps around and a token
// circulates. The run repeats a state only once the start is solved.
extern int __VERIFIER_nondet_int(void);
extern void abort(void);

int id1, id2, id3, token, round;

int main(void) {
    id1 = __VERIFIER_nondet_int();
    id2 = __VERIFIER_nondet_int();
    id3 = __VERIFIER_nondet_int();
    if (id1 != 3 * id2 + 1234567) return 0;
    if (id2 <= 1000 || id3 != id1 - id2) return 0;
    token = 1;
    round = 0;
    while (1) {
        if (token == 1) token = 2; else if (token == 2) token = 3; else token = 1;
        round = round + 1;
        if (round == 200) round = 3;
        if (id3 == id1) abort();
    }
}
