// A driver's main loop: each round either serves a request through a
// function the program does not define (its result is unknown to the
// model) or does nothing. Choosing "nothing" every round never ends.
extern int __VERIFIER_nondet_int(void);
extern int probe_device(int port);

int main(void) {
    int opened = 0;
    while (__VERIFIER_nondet_int() != 0 || opened != 0) {
        if (__VERIFIER_nondet_int() == 0) {
            int r = probe_device(opened);
            if (r != 0) {
                break;
            }
            opened = 0;
        }
    }
    return 0;
}
