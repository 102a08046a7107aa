/* Whole-struct assignments copy every member: y ends as {1, 8}, so i
   starts odd and never meets 10. Were the copies lost (y unknown), no
   non-termination witness could be given. */
struct S { int a; int b; };
struct S tmpl = {1, 2};

int main(void) {
  struct S x, y;
  struct S *p = &y;
  x = tmpl;
  x.b = 8;
  *p = x;
  int i = y.a + y.b;
  while (i != 10) {
    i += 2;
    if (i > 100)
      i = 1;
  }
  return 0;
}
