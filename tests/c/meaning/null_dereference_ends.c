// expected: terminating
// class: a null pointer dereferenced is undefined (C11 6.5.3.2p4); the run
// ends there (Linux traps), in the interpreter and in the model alike
int main(void) {
  volatile int *volatile p = 0;
  int n = 0;
  while (1) {
    *p = n;
    n++;
  }
  return 0;
}
