// expected: terminating
// A static global whose address never escapes cannot be named by external code: the loop ends.
extern int __VERIFIER_nondet_int(void);
static int s;
extern void touch(void);
int main() { s = __VERIFIER_nondet_int(); while (s > 0) { s--; touch(); } return 0; }
