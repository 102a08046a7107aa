// expected: unspecified
// `ext` has no definition: whether the loop ends depends on what it
// returns, which the model does not know. Neither YES nor NO is right.
int ext(void);
int main(void) {
  int x = 1;
  while (x > 0) {
    if (ext()) x--;
  }
  return 0;
}
