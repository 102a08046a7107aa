// expected: unspecified
// A loop whose exit depends on floating-point values: floats are not modelled,
// so only MAYBE is allowed; the integer loop after it still terminates.
int main() {
  double d = 1.0;
  int k = 10;
  while (d < 100.0) d = d * 1.5;
  while (k > 0) k--;
  return k;
}
