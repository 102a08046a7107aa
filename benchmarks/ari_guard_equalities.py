#!/usr/bin/env python3
"""One problem, one answer: integer transition systems in the ARI form
(`(format LCTRS)`, `rule LHS RHS :guard G`) rewritten so that every
right-hand side argument that is not a plain variable becomes a fresh
variable fixed by an equation of the guard:

    (rule (f x y) (f (- x 1) y) :guard (> x 0))
 => (rule (f x y) (f e_1 y) :guard (and (> x 0) (= e_1 (- x 1))))

Equations alternate between `(= v e)` and `(= e v)`. Both files describe
the same problem, so Tessera must give both the same answer.

    benchmarks/ari_guard_equalities.py IN.ari [OUT.ari]
        converts one file (to standard output without OUT);
    benchmarks/ari_guard_equalities.py --bench INDEX.tsv [--tessera BIN]
            [--timeout S] [--jobs N] [--keep DIR]
        for every problem of a verdict index (SMT-LIB files are first
        printed in the ARI form with `tessera emit --ari`; ARI files are
        taken as they are), proves the ARI file and its conversion
        (`prove --format termcomp --timeout S`) and prints one line per
        problem (answers, seconds) and the totals. Exit status 1 when an
        answer differs.
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

NUMERAL = re.compile(r"-?[0-9]+$")


def tokens(text):
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == ";":
            while i < n and text[i] != "\n":
                i += 1
        elif c in "()":
            yield c
            i += 1
        elif c == "|":
            j = text.index("|", i + 1)
            yield text[i:j + 1]
            i = j + 1
        elif c == '"':
            j = i + 1
            while text[j] != '"' or text[j + 1:j + 2] == '"':
                j += 2 if text[j] == '"' else 1
            yield text[i:j + 1]
            i = j + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '();|"':
                j += 1
            yield text[i:j]
            i = j


def parse(text):
    """The top-level s-expressions: atoms are strings, lists are lists."""
    stack, out = [], []
    for t in tokens(text):
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            (stack[-1] if stack else out).append(done)
        else:
            (stack[-1] if stack else out).append(t)
    if stack:
        raise ValueError("unbalanced parentheses")
    return out


def show(e):
    return e if isinstance(e, str) else "(" + " ".join(show(a) for a in e) + ")"


def atoms(e, out):
    if isinstance(e, str):
        out.add(e)
    else:
        for a in e:
            atoms(a, out)
    return out


def is_variable(a):
    return isinstance(a, str) and not NUMERAL.match(a) and a not in ("true", "false")


def convert(text):
    exprs = parse(text)
    taken = atoms(exprs, set())
    counter = [0]

    def fresh():
        while True:
            counter[0] += 1
            name = f"e_{counter[0]}"
            if name not in taken:
                taken.add(name)
                return name

    lines = []
    for e in exprs:
        if isinstance(e, list) and e and e[0] == "rule" and len(e) in (3, 5) and isinstance(e[2], list):
            rhs = list(e[2])
            equations = []
            for i in range(1, len(rhs)):
                if not is_variable(rhs[i]):
                    v = fresh()
                    equations.append(["=", v, rhs[i]] if counter[0] % 2 else ["=", rhs[i], v])
                    rhs[i] = v
            if equations:
                guard = e[4] if len(e) == 5 else None
                conjuncts = ([] if guard is None else [guard]) + equations
                e = [e[0], e[1], rhs, ":guard", conjuncts[0] if len(conjuncts) == 1 else ["and"] + conjuncts]
        lines.append(show(e))
    return "\n".join(lines) + "\n"


def answer(tessera, timeout, path):
    start = time.monotonic()
    run = subprocess.run([tessera, "prove", "--format", "termcomp", "--timeout", str(timeout), path],
                         capture_output=True, text=True)
    first = (run.stdout.splitlines() or ["ERROR"])[0].strip() or "ERROR"
    return first, time.monotonic() - start


def bench(args):
    index = args["--bench"]
    tessera = args.get("--tessera", "target/release/tessera")
    timeout = args.get("--timeout", "10")
    jobs = int(args.get("--jobs", "2"))
    work = args.get("--keep") or tempfile.mkdtemp()
    os.makedirs(work, exist_ok=True)
    folder = os.path.dirname(index)
    with open(index) as f:
        paths = [line.split("\t")[0] for line in f.read().splitlines()[1:] if line.strip()]

    def one(k_rel):
        k, rel = k_rel
        src = os.path.join(folder, rel)
        with open(src) as f:
            text = f.read()
        a = os.path.join(work, f"{k:04d}.ari")
        b = os.path.join(work, f"{k:04d}.eq.ari")
        if text.lstrip().startswith("(format LCTRS)"):
            ari = text
        else:
            run = subprocess.run([tessera, "emit", "--ari", src], capture_output=True, text=True)
            if run.returncode != 0:
                return rel, "SKIP", "SKIP", 0.0, 0.0
            ari = run.stdout
        with open(a, "w") as f:
            f.write(ari)
        with open(b, "w") as f:
            f.write(convert(ari))
        ra, ta = answer(tessera, timeout, a)
        rb, tb = answer(tessera, timeout, b)
        return rel, ra, rb, ta, tb

    start = time.monotonic()
    same = differ = skipped = 0
    with ThreadPoolExecutor(jobs) as pool:
        for rel, ra, rb, ta, tb in pool.map(one, enumerate(paths)):
            if ra == "SKIP":
                skipped += 1
            elif ra == rb:
                same += 1
            else:
                differ += 1
            print(f"{rel}\t{ra}\t{rb}\t{ta:.1f}\t{tb:.1f}\t{'same' if ra == rb else 'DIFFERENT'}", flush=True)
    print(f"# {len(paths)} problems, {skipped} not read, {same} same answer, {differ} different; "
          f"{time.monotonic() - start:.0f} s wall", flush=True)
    return 1 if differ else 0


def main(argv):
    if argv and argv[0] == "--bench":
        args = dict(zip(argv[::2], argv[1::2]))
        return bench(args)
    if not argv or len(argv) > 2 or argv[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        out = convert(f.read())
    if len(argv) == 2:
        with open(argv[1], "w") as f:
            f.write(out)
    else:
        sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
