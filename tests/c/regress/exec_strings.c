// expected: terminating
#include <string.h>
#include <stdio.h>
int main(void) {
  const char *w[] = { "alpha", "beta", "gamma", "delta" };
  char buf[64];
  buf[0] = 0;
  for (int i = 0; i < 4; i++) { if (strlen(buf) + strlen(w[i]) + 1 < sizeof buf) { strcpy(buf + strlen(buf), w[i]); } }
  int n = 0;
  for (const char *p = buf; *p; p++) n += *p == 'a';
  printf("%d\n", n);
  return strcmp(buf, "alphabetagammadelta") == 0 ? n : -1;
}
