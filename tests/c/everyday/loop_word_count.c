// expected: NO
// undefined: none
// loops for: s = " a" (first character a blank)
// Buggy ok_word_count: blanks are skipped with `continue` before the index
// moves on, so the first blank is looked at forever.
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char s[48];
  for (int i = 0; i < 47; i++)
    s[i] = __VERIFIER_nondet_char();
  s[47] = '\0';

  int words = 0;
  int in_word = 0;
  int i = 0;
  while (s[i] != '\0') {
    if (s[i] == ' ') {
      in_word = 0;
      continue;
    }
    if (!in_word)
      words++;
    in_word = 1;
    i++;
  }
  return words;
}
