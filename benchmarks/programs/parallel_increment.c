// The paper's Fig. 4a: x and y grow in lock-step and never meet.
int main(void) {
  int x = 0;
  int y = 9;
  while (x != y) {
    x++;
    y++;
  }
  return 0;
}
