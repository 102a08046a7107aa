// A driver's event loop, as the harnesses of Linux drivers are written:
// each round reads whether more events come, and which. It is left only
// when no event comes while the device is idle; a stream of events that
// never stops keeps it going for ever (NO). Every run ends when each value
// read into `more` is 0: the device starts idle, and the loop is left at
// the first read.
extern int __VERIFIER_nondet_int(void);

int state = 0;

int main(void) {
  while (1) {
    int more = __VERIFIER_nondet_int();
    if (!more) {
      if (state == 0)
        break;
    }
    int event = __VERIFIER_nondet_int();
    if (event == 0) {
      if (state == 0)
        state = 1;
    } else if (event == 1) {
      if (state == 1)
        state = 0;
    }
  }
  return 0;
}
