/* Twenty conditional updates in one loop body: 2^20 paths unless the
   encoding shares them. */
extern int __VERIFIER_nondet_int(void);
int main() { int x = __VERIFIER_nondet_int(); int n = __VERIFIER_nondet_int(); 
  while (n > x) {
    x = x > 0 ? x - 1 : x + 1;
    x = x > 1 ? x - 1 : x + 1;
    x = x > 2 ? x - 1 : x + 1;
    x = x > 3 ? x - 1 : x + 1;
    x = x > 4 ? x - 1 : x + 1;
    x = x > 5 ? x - 1 : x + 1;
    x = x > 6 ? x - 1 : x + 1;
    x = x > 7 ? x - 1 : x + 1;
    x = x > 8 ? x - 1 : x + 1;
    x = x > 9 ? x - 1 : x + 1;
    x = x > 10 ? x - 1 : x + 1;
    x = x > 11 ? x - 1 : x + 1;
    x = x > 12 ? x - 1 : x + 1;
    x = x > 13 ? x - 1 : x + 1;
    x = x > 14 ? x - 1 : x + 1;
    x = x > 15 ? x - 1 : x + 1;
    x = x > 16 ? x - 1 : x + 1;
    x = x > 17 ? x - 1 : x + 1;
    x = x > 18 ? x - 1 : x + 1;
    x = x > 19 ? x - 1 : x + 1;
    n--;
  }
  return 0; }
