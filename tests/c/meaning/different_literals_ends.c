// expected: terminating
// class 7: literals that cannot share storage
int main(void) {
  const char *a = "ab";
  const char *b = "cd";
  if (a == b || a + 1 == b) while (1) {}
  return 0;
}
