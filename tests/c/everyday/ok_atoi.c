// expected: YES
// undefined: none
// Parse an optionally signed decimal number from a string; at most nine
// digits are read, so the value always fits in an int.
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char s[16];
  for (int i = 0; i < 15; i++)
    s[i] = __VERIFIER_nondet_char();
  s[15] = '\0';

  int i = 0;
  while (s[i] == ' ')
    i++;
  int neg = 0;
  if (s[i] == '-' || s[i] == '+') {
    neg = s[i] == '-';
    i++;
  }
  int value = 0;
  int digits = 0;
  while (s[i] >= '0' && s[i] <= '9' && digits < 9) {
    value = value * 10 + (s[i] - '0');
    digits++;
    i++;
  }
  if (neg)
    value = -value;
  return value & 0xff;
}
