// expected: nonterminating
// The cleanup handler runs when x leaves its scope, and spins.
void spin(int *p) { while (*p) { } }
int main(void) {
  int x __attribute__((cleanup(spin))) = 1;
  return 0;
}
