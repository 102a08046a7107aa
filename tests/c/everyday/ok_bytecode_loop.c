// expected: YES
// undefined: none
// A register machine whose fixed program has a backward jump: it adds
// n + (n-1) + ... + 1 for an input n in [0, 1000] (at most 500500).
extern int __VERIFIER_nondet_int(void);

enum { HALT, JZ, ADD, DEC, JMP };

struct insn {
  int op, a, b;
};

int main(void) {
  const struct insn program[5] = {
      {JZ, 0, 4},  /* 0: if r0 == 0 goto 4 */
      {ADD, 1, 0}, /* 1: r1 += r0 */
      {DEC, 0, 0}, /* 2: r0 -= 1 */
      {JMP, 0, 0}, /* 3: goto 0 */
      {HALT, 0, 0},
  };
  int reg[2];
  reg[0] = __VERIFIER_nondet_int();
  reg[1] = 0;
  if (reg[0] < 0 || reg[0] > 1000)
    return 0;

  int pc = 0;
  while (program[pc].op != HALT) {
    struct insn in = program[pc];
    pc++;
    switch (in.op) {
    case JZ: if (reg[in.a] == 0) pc = in.b; break;
    case ADD: reg[in.a] += reg[in.b]; break;
    case DEC: reg[in.a]--; break;
    case JMP: pc = in.a; break;
    }
  }
  return reg[1] & 0xff;
}
