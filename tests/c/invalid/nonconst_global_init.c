int a = 1;
int b = a;
int main(void) { while (b == 1) { } return 0; }
