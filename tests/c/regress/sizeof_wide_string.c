// expected: terminating
// sizeof(L"ab") is 3 * sizeof(wchar_t) = 12 on x86-64 Linux, so f = 1 and the loop is never entered.
int main(void) { int f = (sizeof(L"ab") == 12); while (!f) { } return 0; }
