int f(int a, int a) { return a; }
int main(void) { return f(1, 2); }
