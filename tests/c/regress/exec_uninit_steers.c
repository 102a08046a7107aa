// expected: nonterminating
/* An uninitialized local is any value: 0 makes the loop run forever. */
int main(void) {
  int k;
  int i = 10;
  while (i > 0) { if (k != 0) i--; }
  return 0;
}
