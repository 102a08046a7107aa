// expected: nonterminating
/* A loop made with goto, left only when i reaches 10, but i is reset at 7. */
int main(void) {
  int i = 0;
again:
  i++;
  if (i == 7) i = 0;
  if (i < 10) goto again;
  return i;
}
