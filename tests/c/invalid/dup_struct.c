struct S { int a; };
struct S { int a; };
int main(void) { struct S s; s.a = 1; while (s.a) { } return 0; }
