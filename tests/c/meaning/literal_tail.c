// expected: unspecified
// class 7: a literal the tail of another (gcc -O2 shares it)
int main(void) {
  const char *a = "xab";
  const char *b = "ab";
  if (a + 1 == b) while (1) {}
  return 0;
}
