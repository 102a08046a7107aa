int main(void) {
  int a[2];
  a = 0;
  return 0;
}
