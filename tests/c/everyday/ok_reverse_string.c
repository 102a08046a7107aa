// expected: YES
// undefined: none
// Reverse a string in place with two indices moving towards each other.
#include <string.h>

extern char __VERIFIER_nondet_char(void);

int main(void) {
  char s[40];
  for (int i = 0; i < 39; i++)
    s[i] = __VERIFIER_nondet_char();
  s[39] = '\0';

  int len = (int)strlen(s);
  int i = 0;
  int j = len - 1;
  while (i < j) {
    char t = s[i];
    s[i] = s[j];
    s[j] = t;
    i++;
    j--;
  }
  return s[0] == '\0' ? 0 : 1;
}
