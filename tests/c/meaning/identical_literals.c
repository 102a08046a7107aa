// expected: nonterminating
// class 7: identical literals share storage (gcc merges them)
int main(void) {
  const char *a = "same";
  const char *b = "same";
  if (a == b) while (1) {}
  return 0;
}
