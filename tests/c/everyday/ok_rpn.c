// expected: YES
// undefined: none
// Evaluate a reverse Polish expression of 15 input characters (digits and
// + - *; anything else is skipped). An expression over 15 tokens has at most
// 8 digits, so no value exceeds 9^8 in magnitude.
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char tok[16];
  for (int i = 0; i < 15; i++)
    tok[i] = __VERIFIER_nondet_char();
  tok[15] = '\0';

  int stack[16];
  int sp = 0;
  for (int i = 0; tok[i] != '\0'; i++) {
    char c = tok[i];
    if (c >= '0' && c <= '9') {
      if (sp == 16)
        return 2;
      stack[sp++] = c - '0';
    } else if (c == '+' || c == '-' || c == '*') {
      if (sp < 2)
        return 3; /* underflow */
      int b = stack[--sp];
      int a = stack[--sp];
      stack[sp++] = c == '+' ? a + b : c == '-' ? a - b : a * b;
    }
  }
  return sp == 1 ? (stack[0] & 0xff) : 4;
}
