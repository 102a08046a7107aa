// expected: nonterminating
// Only the value the recursion returns keeps the loop going: `one` always
// returns 1.
extern int __VERIFIER_nondet_int(void);

int one(int n) {
  if (n <= 0)
    return 1;
  return one(n - 1);
}

int main() {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 100)
    return 0;
  while (one(x) == 1) {
  }
  return 0;
}
