int main(void) {
  register int x = 1;
  int *p = &x;
  while (*p) { }
  return 0;
}
