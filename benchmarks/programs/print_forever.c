// Never ends: i is printed, never advanced. printf's result and the two
// identical format strings (one object or two: C leaves it open) are
// values the model does not know, but none of them steers the loop, so
// they do not stand in the way of NO.
int printf(const char *format, ...);
int main(void) {
  int i = 0;
  while (i < 10) {
    printf("%d\n", i);
    printf("%d\n", i + 1);
  }
  return 0;
}
