// expected: nonterminating
/* The static counter keeps its value across calls: the 4th call loops forever. */
static int step(void) {
  static int calls;
  calls++;
  if (calls == 4) for (;;) { }
  return calls;
}
int main(void) {
  int s = 0;
  for (int i = 0; i < 6; i++) s += step();
  return s;
}
