int main(void) {
  int x = 3;
  switch (x) { default: x = 0; break; default: x = 2; break; }
  while (x) { }
  return 0;
}
