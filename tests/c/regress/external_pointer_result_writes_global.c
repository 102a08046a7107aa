// expected: nonterminating
// An external function returning a pointer may also change a global array with external linkage.
extern int __VERIFIER_nondet_int(void);
int arr[3];
extern int *touch(void);
int main() { arr[1] = __VERIFIER_nondet_int(); while (arr[1] > 0) { arr[1]--; int *q = touch(); } return 0; }
