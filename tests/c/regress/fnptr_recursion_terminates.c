// expected: terminating
// `count` calls itself through the pointer `op`, one level less each time:
// the call graph shows no cycle, the inlining meets one.
extern int __VERIFIER_nondet_int(void);
int (*op)(int);
int count(int n) {
  if (n <= 0) return 0;
  return op(n - 1) + 1;
}
int main(void) {
  op = count;
  int n = __VERIFIER_nondet_int();
  if (n > 100) return 0;
  return count(n);
}
