int main(void) {
  const int x = 3;
  x = 0;
  while (x) { }
  return 0;
}
