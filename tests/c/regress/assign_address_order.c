// expected: unspecified
// `arr[idx()] = val()`: the address before the value ends; the value
// first (g = 1, idx() is 0) spins.
int g;
int arr[2];
int idx(void) { return 1 - g; }
int val(void) { g = 1; return 5; }
int main(void) {
  arr[idx()] = val();
  while (arr[1] != 5) { }
  return 0;
}
