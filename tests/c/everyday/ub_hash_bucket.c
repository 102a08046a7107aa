// expected: YES
// undefined: 20 division-by-zero
// UB for: buckets = 0, n = 1, key = 5
// Distribute n non-negative keys over an input number of buckets (at most
// 64) with key % buckets; zero buckets is not rejected.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int count[64] = {0};
  int buckets = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  if (buckets < 0 || buckets > 64 || n < 0 || n > 100)
    return 0;

  int fullest = 0;
  for (int i = 0; i < n; i++) {
    int key = __VERIFIER_nondet_int();
    if (key < 0)
      continue;
    int b = key % buckets; /* UB */
    count[b]++;
    if (count[b] > count[fullest])
      fullest = b;
  }
  return fullest;
}
