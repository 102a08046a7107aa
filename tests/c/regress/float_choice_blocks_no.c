// expected: terminating
// Floating-point values are unknown to the model: the comparison could go
// either way there, so the model has a run that never ends. No NO may rest
// on such a value (compiled, the loop ends at once).
int main(void) {
  double d = 0.5;
  int x = 1;
  while (x > 0) {
    if (d < 1.0) x--;
  }
  return 0;
}
