// expected: nonterminating
/* c < 256 always holds for an unsigned char. */
int main(void) {
  int n = 0;
  for (unsigned char c = 0; c < 256; c++) n = c;
  return n;
}
