// An event-condition-action system in the style of the RERS challenge
// (SV-COMP's eca-rers2012): a loop reads an input 1..4 and fires the first
// rule whose condition holds; some states are errors that end the run.
// From the start, input 2 reaches s == 3 && t == 1, where input 4 fires no
// rule: the state stays and the loop runs for ever. Every other input
// sequence reaches an error (exit) sooner or later or cycles too.
extern int __VERIFIER_nondet_int(void);
extern void exit(int);

int s = 0, t = 0, u = 7;

void step(int input) {
    if (s == 0 && input == 1) { s = 1; u = u + 2; }
    else if (s == 0 && input == 2) { s = 3; t = 1; }
    else if (s == 1 && input == 3) { s = 2; u = u * 2; }
    else if (s == 3 && t == 1 && input == 1) { s = 4; }
    else if (s == 3 && t == 1 && input == 2) { t = 2; u = u - 1; }
    else if (s == 3 && t == 2) { s = 0; t = 0; }
    else if (s == 1 && input != 3) { s = 5; }
    if (s == 2 && u > 20) exit(1);
    if (s == 4) exit(2);
    if (s == 5 && u == 9) exit(3);
}

int main(void) {
    while (1) {
        int input = __VERIFIER_nondet_int();
        if (input < 1 || input > 4) return 0;
        step(input);
    }
}
