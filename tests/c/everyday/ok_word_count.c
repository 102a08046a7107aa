// expected: YES
// undefined: none
// Count the words (runs of non-blank characters) of a string.
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char s[48];
  for (int i = 0; i < 47; i++)
    s[i] = __VERIFIER_nondet_char();
  s[47] = '\0';

  int words = 0;
  int i = 0;
  while (s[i] != '\0') {
    while (s[i] == ' ')
      i++;
    if (s[i] == '\0')
      break;
    words++;
    while (s[i] != ' ' && s[i] != '\0')
      i++;
  }
  return words;
}
