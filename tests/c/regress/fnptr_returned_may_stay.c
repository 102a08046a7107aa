// expected: nonterminating
// A function pointer returned by a call: with k == 0 it is `same` and x never moves.
extern int __VERIFIER_nondet_int(void);
typedef int (*op)(int);
int dec(int x) { return x - 1; }
int same(int x) { return x; }
op pick(int k) { if (k) return dec; return same; }
int main(void) {
  int x = __VERIFIER_nondet_int();
  op f = pick(__VERIFIER_nondet_int());
  while (x > 0) x = f(x);
  return 0;
}
