// Control flow independent of the inputs: execution runs the one run, and
// the program model confirms it (each loop's bound or ranking function).
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) {
    int j = 0;
    while (j < i) j++;
    s += j;
  }
  return s;
}
