// expected: nonterminating
// The step function is loaded from a struct: it may be `stay`, and then
// the loop never ends.
extern int __VERIFIER_nondet_int(void);
struct ops { void (*step)(int *); };
void dec(int *x) { *x = *x - 1; }
void stay(int *x) { }
int main(void) {
  struct ops o;
  int x = __VERIFIER_nondet_int();
  if (__VERIFIER_nondet_int()) o.step = dec; else o.step = stay;
  while (x > 0) o.step(&x);
  return 0;
}
