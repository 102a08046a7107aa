// expected: terminating
// class 2: jump-free assembly
int main(void) {
  int x = 5, y;
  __asm__ volatile("mov %1, %0\n\tlea 1(%0), %0" : "=r"(y) : "r"(x));
  for (int i = 0; i < 10; i++) {}
  return y > 0 ? 0 : 1;
}
