// Every target returns a pointer to a 0: the loop never runs.
extern int __VERIFIER_nondet_int(void);
int zero = 0, also_zero = 0;
int *get_zero(void) { return &zero; }
int *get_also_zero(void) { return &also_zero; }
int main(void) {
  int *(*f)(void) = __VERIFIER_nondet_int() ? get_zero : get_also_zero;
  int *p = f();
  while (*p != 0) {
    (*p)++;
  }
  return 0;
}
