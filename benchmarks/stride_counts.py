#!/usr/bin/env python3
"""Checks the interpreter's acceleration (src/c/exec/drift.rs) against gcc.

Generates random counter loops (unsigned char/short/int counters moved by
fixed amounts every `period` iterations, exits on equalities and bounds),
proves each with Tessera, and compares every YES's iteration count
(`loop at ...: at most N iterations in every run`, one run: no inputs)
with the count of the compiled program (stopped at 3e9 iterations). A
YES with another count, a YES on a loop gcc's run does not finish within
the cap while Tessera's count is below it, or a NO on a loop that ends,
is a mismatch.

    benchmarks/stride_counts.py SEED COUNT [TESSERA] [WORKDIR]

Exit status 1 on a mismatch.
"""
import os
import random
import re
import subprocess
import sys
import tempfile

CAP = 3_000_000_000


def program(rng):
    types = ["unsigned char", "unsigned short", "unsigned int"]
    ta, tb = rng.choice(types), rng.choice(types)
    a0, b0 = rng.randint(0, 255), rng.randint(0, 255)
    da, db = rng.choice([1, 2, 3, 5, -1, -2]), rng.choice([0, 1, 2, -1, 7])
    period = rng.choice([1, 2, 3])
    cond = rng.choice([
        f"a == {rng.randint(0, 70000)}u",
        f"b == {rng.randint(0, 70000)}u",
        f"a < {rng.randint(0, 50)}u && b > {rng.randint(0, 100)}u",
        f"a + b == {rng.randint(0, 1000)}u",
        "b == a",
        f"a > {rng.randint(0, 4000000000)}u",
    ])
    body = (f"    if (phase == 0) a += {da};\n"
            f"    if (phase == {period - 1}) b += {db};\n"
            f"    phase = phase + 1 == {period} ? 0 : phase + 1;\n"
            f"    if ({cond}) break;\n")
    core = f"  {ta} a = {a0}; {tb} b = {b0}; int phase = 0;\n  while (1) {{\nCOUNT{body}  }}\n"
    tessera = "int main(void) {\n" + core.replace("COUNT", "") + "  return 0;\n}\n"
    counted = ("#include <stdio.h>\nint main(void) {\n  unsigned long long n = 0;\n"
               + core.replace("COUNT", f"    n++; if (n > {CAP}ull) {{ printf(\"cap\\n\"); return 0; }}\n")
               + "  printf(\"%llu\\n\", n);\n  return 0;\n}\n")
    return tessera, counted


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    tessera = sys.argv[3] if len(sys.argv) > 3 else "target/release/tessera"
    work = sys.argv[4] if len(sys.argv) > 4 else tempfile.mkdtemp(prefix="stride-counts-")
    rng = random.Random(seed)
    yes = mismatches = 0
    for i in range(count):
        t_src, g_src = program(rng)
        t, g = os.path.join(work, f"t{i}.c"), os.path.join(work, f"g{i}.c")
        open(t, "w").write(t_src)
        open(g, "w").write(g_src)
        subprocess.run(["gcc", "-O2", "-w", "-o", g[:-2], g], check=True)
        try:
            truth = subprocess.run([g[:-2]], capture_output=True, text=True, timeout=30).stdout.strip()
        except subprocess.TimeoutExpired:
            truth = "cap"
        out = subprocess.run(["timeout", "30", tessera, "prove", "--timeout", "10", t], capture_output=True, text=True).stdout
        answer = out.split("\n")[0].rsplit(": ", 1)[-1] if out else "?"
        m = re.search(r"at most (\d+) iterations? in every run", out)
        n = m.group(1) if m else None
        ok = True
        if answer == "YES":
            yes += 1
            if truth == "cap":
                ok = n is not None and int(n) > CAP
            elif n is not None and n != truth:
                ok = False
        if answer == "NO" and truth != "cap":
            ok = False
        if not ok:
            mismatches += 1
            print(f"MISMATCH {t}: Tessera {answer} {n}, gcc {truth}", flush=True)
    print(f"{count} loops, {yes} YES, {mismatches} mismatches ({work})")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
