// expected: nonterminating
/* m = 1 << (k % 32) is 1 for some input (i reaches 5) and even for the others (i stays even, never 5): some run never ends. */
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned k = __VERIFIER_nondet_uint();
  unsigned m = 1u << (k % 32);
  unsigned i = 0;
  while (i != 5) i += m;
  return 0;
}
