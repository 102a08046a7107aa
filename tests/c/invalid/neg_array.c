int a[-1];
int main(void) { int x = 1; while (x) { } return 0; }
