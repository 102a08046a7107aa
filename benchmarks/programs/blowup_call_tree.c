/* 20 levels of loop-free functions that each call the next one twice:
   2^20 inlined bodies unless calls are summarized. */
extern int __VERIFIER_nondet_int(void);
int g;
int f20(int x) { g = g + (x > 3 ? 1 : 2); return x + 1; }
int f19(int x) { int a = f20(x); int b = f20(a); if (b > 7) g++; return a + b; }
int f18(int x) { int a = f19(x); int b = f19(a); if (b > 7) g++; return a + b; }
int f17(int x) { int a = f18(x); int b = f18(a); if (b > 7) g++; return a + b; }
int f16(int x) { int a = f17(x); int b = f17(a); if (b > 7) g++; return a + b; }
int f15(int x) { int a = f16(x); int b = f16(a); if (b > 7) g++; return a + b; }
int f14(int x) { int a = f15(x); int b = f15(a); if (b > 7) g++; return a + b; }
int f13(int x) { int a = f14(x); int b = f14(a); if (b > 7) g++; return a + b; }
int f12(int x) { int a = f13(x); int b = f13(a); if (b > 7) g++; return a + b; }
int f11(int x) { int a = f12(x); int b = f12(a); if (b > 7) g++; return a + b; }
int f10(int x) { int a = f11(x); int b = f11(a); if (b > 7) g++; return a + b; }
int f9(int x) { int a = f10(x); int b = f10(a); if (b > 7) g++; return a + b; }
int f8(int x) { int a = f9(x); int b = f9(a); if (b > 7) g++; return a + b; }
int f7(int x) { int a = f8(x); int b = f8(a); if (b > 7) g++; return a + b; }
int f6(int x) { int a = f7(x); int b = f7(a); if (b > 7) g++; return a + b; }
int f5(int x) { int a = f6(x); int b = f6(a); if (b > 7) g++; return a + b; }
int f4(int x) { int a = f5(x); int b = f5(a); if (b > 7) g++; return a + b; }
int f3(int x) { int a = f4(x); int b = f4(a); if (b > 7) g++; return a + b; }
int f2(int x) { int a = f3(x); int b = f3(a); if (b > 7) g++; return a + b; }
int f1(int x) { int a = f2(x); int b = f2(a); if (b > 7) g++; return a + b; }
int main() { int n = __VERIFIER_nondet_int(); int i = 0; while (i < n) { g = f1(i) ; i++; } return 0; }
