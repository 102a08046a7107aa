int f(int);
long f(int a) { return a; }
int main(void) { return f(0); }
