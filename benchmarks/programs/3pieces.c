// The paper's 3pieces (Urban, Gurfinkel, Kahsai 2016, Fig. 3a): terminates
// for every x; ranking function max(-x, 21 - x, x + 1).
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x != 0) {
    if (x < 10)
      x++;
    else
      x = -x;
  }
  return 0;
}
