/* Kernel-style code: the address of an extern object of a type never
   completed, and inline assembly that calls a helper (Linux get_user).
   Both are code and data outside the program: the loop still counts down. */
struct tvec_base;
extern struct tvec_base boot_base;
struct timer { struct tvec_base *base; int n; };
struct timer t = { &boot_base, 5 };

int main(void) {
  unsigned r;
  int v = 3;
  __asm__ volatile ("call __get_user_4" : "=a"(r) : "0"(v));
  int n = t.n + (int)(r & 7);
  while (n > 0)
    n--;
  return 0;
}
