// expected: nonterminating
// With g == 3 every call makes the same call again.
extern int __VERIFIER_nondet_int(void);
int g;

void rec(void) {
  if (g == 3)
    rec();
}

int main() {
  g = __VERIFIER_nondet_int();
  rec();
  return 0;
}
