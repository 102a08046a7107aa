// A reactive loop that never ends: the counter is never advanced. Its body
// has an inner loop (a cut-point inside it) and an input that, chosen badly,
// leads to abort(): the witness keeps the input at 0 and runs for ever.
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
int level;
void step(void) {
  int k = 0;
  while (k < 3) k++;
  if (level > 10) abort();
}
int main(void) {
  int count = 0;
  while (count < 4) {
    if (__VERIFIER_nondet_int()) level++;
    step();
  }
  return 0;
}
