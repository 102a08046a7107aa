// expected: unspecified
// `arr[idx()] += val()`: gcc calls val() first (arr[0] gets 5, the loop
// spins); the other order C allows writes arr[1] and ends.
int g;
int arr[2];
int idx(void) { return 1 - g; }
int val(void) { g = 1; return 5; }
int main(void) {
  arr[idx()] += val();
  while (arr[1] != 5) { }
  return 0;
}
