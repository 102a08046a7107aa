// expected: YES
// undefined: none
// Count how often an input character occurs in a string, with a pointer walk.
extern char __VERIFIER_nondet_char(void);

int main(void) {
  char buf[64];
  for (int i = 0; i < 63; i++)
    buf[i] = __VERIFIER_nondet_char();
  buf[63] = '\0';
  char c = __VERIFIER_nondet_char();

  int count = 0;
  for (const char *p = buf; *p; p++) {
    if (*p == c)
      count++;
  }
  return count;
}
