// expected: terminating
// Computed goto through a static dispatch table (GNU C: `&&label`,
// `goto *p`): valid C for gcc, so never "invalid" (exit 3).
int main(void) {
    static void *next[] = { &&count, &&done };
    int i = 0;
    goto *next[0];
count:
    i++;
    if (i < 10)
        goto *next[0];
    goto *next[1];
done:
    return 0;
}
