// expected: nonterminating
// The recursion reads its counter through a pointer and never changes it.
void down(int *p) {
  if (*p > 0) {
    down(p);
  }
}
int main(void) {
  int x = 1;
  down(&x);
  return 0;
}
