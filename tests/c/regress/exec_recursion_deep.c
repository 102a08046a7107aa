// expected: nonterminating
/* Recursion that never reaches its base case for an odd start (unsigned: wraps, stays odd). */
static unsigned down(unsigned x) { if (x == 0) return 0; return 1 + down(x - 2); }
int main(void) { return (int)down(7); }
