int main(void) {
  int x = 1;
  x();
  while (x) { }
  return 0;
}
