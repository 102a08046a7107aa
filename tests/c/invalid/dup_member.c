struct S { int a; int a; };
int main(void) { struct S s; s.a = 0; return s.a; }
