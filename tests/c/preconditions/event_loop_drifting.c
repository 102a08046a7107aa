// Like event_loop.c, but the loop is left only on a 0 read while x is
// positive, and every other round takes one from x. With every value read
// being 0, a run that enters with x <= 0 still never ends: that condition
// on the values read is no precondition, and none may be claimed from it.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (1) {
    int c = __VERIFIER_nondet_int();
    if (c == 0 && x > 0)
      break;
    x = x - 1;
  }
  return 0;
}
