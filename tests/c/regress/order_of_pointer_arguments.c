// expected: unspecified
// Which call runs first decides which cell each parameter points to:
// gcc evaluates the second argument first (p = &a[0], the loop spins);
// the other order ends.
int g;
int a[2];
int *pick(void) { g++; return &a[g % 2]; }
void set(int *p, int *q) { *p = 5; *q = 7; }
int main(void) {
  set(pick(), pick());
  while (a[1] != 5) { }
  return 0;
}
