// expected: nonterminating
/* x stays odd, never 0: runs forever (2^32 steps per wrap, then repeats). */
int main(void) {
  unsigned x = 1;
  while (x != 0) x += 2;
  return 0;
}
