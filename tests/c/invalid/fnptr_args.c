int g(int n) { return n; }
int main(void) {
  int (*fp)(int) = g;
  int x = fp(1, 2);
  while (x) { }
  return 0;
}
