// The loop is left by a break: its body is entered 12 times (i = 0..11).
int main(void) {
  int i = 0, c = 0;
  while (1) {
    if (i > 10)
      break;
    i++;
    c++;
  }
  return c;
}
