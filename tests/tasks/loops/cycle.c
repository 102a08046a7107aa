// x cycles through 5..10 and never reaches 0 (no overflow: the program is
// free of undefined behaviour, as SV-COMP tasks are).
int main(void) {
  int x = 5;
  while (x > 0) {
    if (x < 10)
      x++;
    else
      x = 5;
  }
  return 0;
}
