// expected: terminating
// class 1: a constructor that ends (refused or YES, never NO)
int g;
void set(void) __attribute__((constructor));
void set(void) { g = 1; }
int main(void) { while (g > 0 && g < 10) g++; return 0; }
