// expected: YES
// undefined: none
// Linear search for an input key among n input numbers, n up to 100.
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[100];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100)
    return 0;
  for (int i = 0; i < n; i++)
    a[i] = __VERIFIER_nondet_int();
  int key = __VERIFIER_nondet_int();

  int i = 0;
  while (i < n && a[i] != key)
    i++;

  if (i == n)
    return 1; /* not found */
  return 0;
}
