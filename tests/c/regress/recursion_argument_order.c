// expected: unspecified
// The arguments' order of evaluation decides: left to right gives
// rec(1, 2), which returns; right to left rec(2, 1), which recurses
// forever.
int g;

int next(void) {
  g = g + 1;
  return g;
}

void rec(int a, int b) {
  if (a < b)
    return;
  g = 0;
  rec(next(), next());
}

int main() {
  rec(1, 0);
  return 0;
}
