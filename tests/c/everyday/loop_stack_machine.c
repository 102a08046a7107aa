// expected: NO
// undefined: none
// loops for: ops = 0 (the first instruction is a NOP)
// A stack machine running eight instructions chosen by input; the
// interpreter forgets to advance pc on NOP, so the first NOP runs forever.
extern int __VERIFIER_nondet_int(void);

enum { NOP, PUSH1, ADD, POP };

int main(void) {
  int program[8];
  for (int i = 0; i < 8; i++) {
    int op = __VERIFIER_nondet_int() % 4;
    program[i] = op < 0 ? -op : op;
  }

  int stack[8];
  int sp = 0;
  int pc = 0;
  while (pc < 8) {
    switch (program[pc]) {
    case NOP:
      break; /* bug: no pc++ */
    case PUSH1:
      stack[sp++] = 1;
      pc++;
      break;
    case ADD:
      if (sp >= 2) {
        sp--;
        stack[sp - 1] += stack[sp];
      }
      pc++;
      break;
    default: /* POP */
      if (sp > 0)
        sp--;
      pc++;
      break;
    }
  }
  return sp > 0 ? stack[sp - 1] : 0;
}
