// expected: terminating
// The recursion ends the program (exit) at depth x: the loop after the
// call is never reached, though a model in which the call returns spins
// there.
extern int __VERIFIER_nondet_int(void);
extern void exit(int);

void f(int n) {
  if (n == 0)
    exit(0);
  f(n - 1);
}

int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 1000)
    return 0;
  f(x);
  while (1) {
  }
}
