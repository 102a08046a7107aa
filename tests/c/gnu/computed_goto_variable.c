// expected: nonterminating
// `&&label` in a pointer variable, and `a && b` beside it.
int main(void) {
    void *target = &&again;
    int a = 1, b = 1;
again:
    if (a && b)
        goto *target;
    return 0;
}
