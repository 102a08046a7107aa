// Steps toward 0 from either side: the guard `x != 0` split by sign is
// recurrent on neither side, and the loop ends.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x != 0) {
    if (x > 0)
      x--;
    else
      x++;
  }
  return 0;
}
