// expected: terminating
// A local array is a block of cells; an index loop reads the stored bound.
int main() {
  int a[4] = { 3, 0 };
  int i, n = 0;
  for (i = 0; i < 4; i++) n += a[i];
  while (n > 0) n--;
  int b[] = { 1, 2, 3 };
  return (int)(sizeof b / sizeof b[0]);
}
