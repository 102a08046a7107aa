// expected: nonterminating
// A call through a pointer that may hold a function that never returns.
extern int __VERIFIER_nondet_int(void);
void spin(void) { while (1) {} }
void nop(void) {}
int main(void) {
  void (*f)(void);
  if (__VERIFIER_nondet_int()) f = spin; else f = nop;
  (*f)();
  return 0;
}
