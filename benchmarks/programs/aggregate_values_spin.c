/* Aggregate values C code builds: initializers without inner braces
   (C11 6.7.9p20), compound literals, and structs returned by functions.
   When every value is right (ok is 1), the loop spins: arr[1].b is 0, not 6. */
struct T { int a[2]; int b; };
struct U { struct T t; int c; };
struct P { int x, y; };

struct P make(int k) {
  struct P p;
  p.x = k;
  p.y = 0;
  return p;
}

int main(void) {
  int m[2][2] = {1, 2, 3};
  struct U u = {4, 5, 6, 7};
  struct T arr[2] = {1, 2, 3, {4, 5}, 6};
  int *q = (int[]){1, 2, 3};
  struct P *r = &(struct P){.y = 4};
  struct P s = make(9);
  int k = make(3).x;
  int ok = m[1][0] == 3 && m[1][1] == 0 && u.c == 7 && u.t.b == 6 && arr[1].a[1] == 5
           && q[2] == 3 && r->y == 4 && r->x == 0 && s.x == 9 && s.y == 0 && k == 3;
  while (ok && arr[1].b != 6) {
  }
  return 0;
}
