// The pointer holds `dec` and nothing else: the loop counts down.
extern int __VERIFIER_nondet_int(void);
int g;
void dec(void) { g--; }
void inc(void) { g++; }
int main(void) {
  void (*step)(void) = dec;
  int (*unused)(void) = 0;
  g = __VERIFIER_nondet_int();
  while (g > 0) step();
  return 0;
}
