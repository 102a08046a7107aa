#!/usr/bin/env python3
"""Random programs whose branches on inputs the symbolic exploration joins
(`src/c/exec/join.rs`), checked against the compiled program.

Each program reads three inputs (assumed in 0..3), computes variables
through nested `if`s, `?:`, `&&` and `||` on them (the branches a run
joins), then runs a loop whose end depends on those variables. The truth
comes from gcc: the program compiled with a cap on the loop's iterations
and run on all 64 inputs (an input whose loop passes the cap runs forever:
the loops either end within a few dozen iterations or never).

A YES must have every input end, a NO some input loop. Prints per
program what Tessera said and what is true, and the counts; exits 1 on
a wrong answer.

    benchmarks/join_fuzz.py SEED COUNT [TESSERA] [WORKDIR]
"""
import os
import random
import subprocess
import sys
import tempfile

CAP = 10_000


def cond(r, vs):
    a, b = r.choice(vs), r.choice(vs)
    op = r.choice(["<", "<=", "==", "!=", ">", ">="])
    c = f"{a} {op} {b}" if r.random() < 0.6 else f"{a} {op} {r.randint(0, 3)}"
    if r.random() < 0.3:
        c = f"({c}) {r.choice(['&&', '||'])} ({cond(r, vs)})"
    return c


def expr(r, vs):
    a = r.choice(vs)
    k = r.randint(-2, 3)
    return r.choice([f"{a}", f"{a} + {k}", f"{k}", f"{a} - {r.choice(vs)}", f"({cond(r, vs)}) ? {a} : {k}", f"({cond(r, vs)})"])


def stmts(r, vs, targets, depth):
    out = []
    for _ in range(r.randint(1, 3)):
        t = r.choice(targets)
        kind = r.random()
        if kind < 0.45 and depth < 3:
            then = stmts(r, vs, targets, depth + 1)
            other = stmts(r, vs, targets, depth + 1) if r.random() < 0.5 else ""
            out.append(f"if ({cond(r, vs)}) {{ {then} }}" + (f" else {{ {other} }}" if other else ""))
        else:
            out.append(f"{t} = {expr(r, vs)};")
    return " ".join(out)


def program(r):
    vs = ["a", "b", "c", "x", "y", "z"]
    body = " ".join(stmts(r, vs, ["x", "y", "z"], 0) for _ in range(r.randint(1, 3)))
    loop = r.choice([
        f"while ({cond(r, ['x', 'y', 'z', 'a'])}) {{ TICK; }}",
        "while (x > 0) { TICK; x = x - y; }",
        "while (x != y) { TICK; x = x + z; }",
        "for (int i = 0; i < x + y; i++) { TICK; }",
        "while (x < 10) { TICK; x = x + y + z; }",
    ])
    return f"""extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {{
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int(), c = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= a && a <= 3 && 0 <= b && b <= 3 && 0 <= c && c <= 3);
  int x = 0, y = 0, z = 0;
  {body}
  {loop}
  return 0;
}}
"""


def truth(text, work):
    """Whether every input ends (`True`), some loops (`False`), from gcc."""
    harness = """#include <stdio.h>
#include <stdlib.h>
static int inputs[3], next_input, ticks;
int __VERIFIER_nondet_int(void) { return inputs[next_input++]; }
void __VERIFIER_assume(int c) { if (!c) exit(0); }
#define TICK do { if (++ticks > %d) { puts("loops"); exit(0); } } while (0)
#define main program_main
""" % CAP
    driver = """
#undef main
int main(int argc, char **argv) {
  inputs[0] = atoi(argv[1]); inputs[1] = atoi(argv[2]); inputs[2] = atoi(argv[3]);
  program_main();
  return 0;
}
"""
    src = os.path.join(work, "oracle.c")
    exe = os.path.join(work, "oracle")
    with open(src, "w") as f:
        f.write(harness + text.replace("extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\n", "") + driver)
    subprocess.run(["gcc", "-O0", "-w", "-o", exe, src], check=True)
    for a in range(4):
        for b in range(4):
            for c in range(4):
                out = subprocess.run([exe, str(a), str(b), str(c)], capture_output=True, text=True, timeout=10).stdout
                if "loops" in out:
                    return False
    return True


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    tessera = sys.argv[3] if len(sys.argv) > 3 else "target/release/tessera"
    work = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="join_fuzz.")
    r = random.Random(seed)
    counts = {"YES": 0, "NO": 0, "MAYBE": 0, "wrong": 0}
    for k in range(count):
        text = program(r)
        path = os.path.join(work, f"p{k}.c")
        with open(path, "w") as f:
            f.write(text.replace("TICK", "(void)0"))
        ends = truth(text, work)
        out = subprocess.run(["timeout", "60", tessera, "prove", "--timeout", "20", path], capture_output=True, text=True).stdout
        first = out.splitlines()[0] if out else ""
        answer = first.rsplit(": ", 1)[-1].strip() if first.startswith(path) else "MAYBE"
        answer = answer if answer in ("YES", "NO") else "MAYBE"
        counts[answer] += 1
        wrong = (answer == "YES" and not ends) or (answer == "NO" and ends)
        if wrong:
            counts["wrong"] += 1
        print(f"{path}: tessera {answer}, truth {'terminating' if ends else 'nonterminating'}{'  WRONG' if wrong else ''}", flush=True)
    print(f"seed {seed}: {count} programs, YES {counts['YES']}, NO {counts['NO']}, MAYBE {counts['MAYBE']}, wrong {counts['wrong']}")
    sys.exit(1 if counts["wrong"] else 0)


if __name__ == "__main__":
    main()
