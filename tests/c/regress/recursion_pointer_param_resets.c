// expected: nonterminating
// The base case of the recursion resets the caller's counter through the
// pointer: the loop after the call never ends.
void reset(int *p, int n) {
  if (n > 0) {
    reset(p, n - 1);
  } else {
    *p = 0;
  }
}
int main(void) {
  int c = 10;
  reset(&c, 3);
  while (c < 5) {}
  return 0;
}
