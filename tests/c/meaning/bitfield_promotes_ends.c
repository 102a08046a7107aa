// expected: terminating
// class 5: the promoted value is small, not a huge unsigned one
struct s { unsigned u : 3; } v;
int main(void) {
  v.u = 0;
  if (v.u - 1 > 0) while (1) {}
  return 0;
}
