// Ends only because signed overflow is undefined behaviour (--ints c).
int main(void) { int k = 0; while (1) k++; return 0; }
