// expected: YES
// undefined: none
// Length of a string read into a 32-byte buffer that always ends in '\0'.
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char s[32];
  for (int i = 0; i < 31; i++)
    s[i] = __VERIFIER_nondet_char();
  s[31] = '\0';

  int len = 0;
  while (s[len] != '\0')
    len++;

  return len;
}
