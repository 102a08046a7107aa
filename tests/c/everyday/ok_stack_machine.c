// expected: YES
// undefined: none
// A stack machine running a fixed program that computes (x + y) * 2 - z for
// three inputs clamped to [-100, 100].
extern int __VERIFIER_nondet_int(void);

enum { HALT, PUSH, ADD, SUB, MUL };

static int clamp(int v) {
  return v < -100 ? -100 : v > 100 ? 100 : v;
}

int main(void) {
  int program[12] = {PUSH, 0, PUSH, 0, ADD, PUSH, 2, MUL, PUSH, 0, SUB, HALT};
  program[1] = clamp(__VERIFIER_nondet_int());
  program[3] = clamp(__VERIFIER_nondet_int());
  program[9] = clamp(__VERIFIER_nondet_int());

  int stack[8];
  int sp = 0;
  int pc = 0;
  while (pc < 12 && program[pc] != HALT) {
    int op = program[pc++];
    if (op == PUSH) {
      stack[sp++] = program[pc++];
    } else {
      int b = stack[--sp];
      int a = stack[--sp];
      if (op == ADD)
        stack[sp++] = a + b;
      else if (op == SUB)
        stack[sp++] = a - b;
      else
        stack[sp++] = a * b;
    }
  }
  return stack[0] & 0xff;
}
