int main(void) {
  int x = 3;
  switch (x) { case 1: x = 0; break; case 1: x = 2; break; }
  while (x) { }
  return 0;
}
