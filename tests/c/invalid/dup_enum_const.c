enum { A = 1 };
enum { A = 2 };
int main(void) { int x = A; while (x == 2) { } return 0; }
