#!/usr/bin/env python3
"""Whole-run bounds of Tessera on C functions of the termination competition's
complexity category (TPDB Complexity_C_Integer): how many get a polynomial
bound, of which class, against the class a file states in a comment
(`//O(n^2)`, where it has one).

The category's files define one function and no `main`; its parameters are
the inputs, integers are unbounded (`--ints math`). Each file is copied to a
temporary directory with a `main` that calls the function not called by any
other with `__VERIFIER_nondet_int()` arguments. Functions with a parameter
that is not an integer are skipped (counted apart).

    python3 benchmarks/complexity_c.py DIR --tessera target/release/tessera \
        --timeout 10 --jobs 2 --out benchmarks/results/complexity_c.md

DIR is a checkout's Complexity_C_Integer folder (the benchmark itself is not
part of this repository).
"""

import argparse
import collections
import concurrent.futures
import datetime
import json
import os
import re
import subprocess
import tempfile
import time

INT_TYPES = {"int", "unsigned", "unsigned int", "long", "unsigned long", "long long", "short", "char", "signed"}
DEF = re.compile(r"^\s*(?:static\s+)?(?:int|void|unsigned(?:\s+int)?|long)\s+(\w+)\s*\(([^)]*)\)\s*\{", re.M)
STATED = re.compile(r"O\(\s*(1|n(?:\^(\d+))?)\s*\)")


def entry_of(src):
    """(name, parameter types) of the function no other one calls, the last
    one defined when several are not called; None without one."""
    defs = [(m.group(1), m.group(2)) for m in DEF.finditer(src)]
    if not defs:
        return None
    called = {name for name, _ in defs if re.search(r"\b%s\s*\(" % re.escape(name), DEF.sub("", src))}
    roots = [d for d in defs if d[0] not in called and d[0] != "main"] or defs
    name, params = roots[-1]
    types = []
    for p in params.split(","):
        p = p.strip()
        if not p or p == "void":
            continue
        words = p.replace("*", " * ").split()
        ty = " ".join(words[:-1]) if len(words) > 1 else p
        types.append(ty)
    return name, types


def stated_class(src):
    """The class a comment states (`O(n^2)` -> 2, `O(1)` -> 0), if any."""
    for line in src.splitlines():
        if "//" in line or "/*" in line:
            m = STATED.search(line)
            if m:
                return 0 if m.group(1) == "1" else int(m.group(2) or 1)
    return None


def degree_of(complexity):
    if complexity == "O(1)":
        return 0
    if complexity == "O(n)":
        return 1
    m = re.match(r"O\(n\^(\d+)\)", complexity or "")
    return int(m.group(1)) if m else None


def run_one(path, rel, args, tmp):
    with open(path, encoding="utf-8", errors="replace") as f:
        src = f.read()
    res = {"file": rel, "stated": stated_class(src), "answer": None, "complexity": None, "bound": None, "skipped": None}
    entry = entry_of(src)
    if entry is None:
        res["skipped"] = "no function"
        return res
    name, types = entry
    if any(t not in INT_TYPES for t in types):
        res["skipped"] = "a parameter that is not an integer"
        return res
    call = f"{name}({', '.join('__VERIFIER_nondet_int()' for _ in types)})"
    wrapped = "extern int __VERIFIER_nondet_int(void);\n" + src + f"\nint main(void) {{ {call}; return 0; }}\n"
    out = os.path.join(tmp, rel.replace("/", "__"))
    with open(out, "w") as f:
        f.write(wrapped)
    try:
        p = subprocess.run([args.tessera, "prove", "--ints", "math", "--format", "json", "--timeout", str(args.timeout), out],
                           capture_output=True, text=True, timeout=args.timeout + 30)
        js = json.loads(p.stdout)
    except (subprocess.TimeoutExpired, json.JSONDecodeError) as e:
        res["answer"] = "ERROR"
        res["skipped"] = f"no answer ({type(e).__name__})"
        return res
    res["answer"] = js.get("answer")
    pb = js.get("program_bound")
    if pb:
        res["complexity"], res["bound"] = pb.get("complexity"), pb.get("bound_text")
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--tessera", default="target/release/tessera")
    ap.add_argument("--timeout", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out")
    args = ap.parse_args()
    files = sorted(os.path.relpath(os.path.join(d, f), args.dir) for d, _, fs in os.walk(args.dir) for f in fs if f.endswith(".c"))
    started, t0 = datetime.datetime.now(datetime.timezone.utc), time.time()
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda rel: run_one(os.path.join(args.dir, rel), rel, args, tmp), files))
    elapsed = time.time() - t0
    answers = collections.Counter(r["answer"] for r in results if not r["skipped"] or r["answer"])
    skipped = collections.Counter(r["skipped"] for r in results if r["skipped"] and not r["answer"])
    classes = collections.Counter(r["complexity"] for r in results if r["complexity"])
    stated = [r for r in results if r["stated"] is not None and r["answer"]]
    agree = [r for r in stated if degree_of(r["complexity"]) == r["stated"]]
    above = [r for r in stated if r["complexity"] and degree_of(r["complexity"]) > r["stated"]]
    below = [r for r in stated if r["complexity"] and degree_of(r["complexity"]) < r["stated"]]
    L = ["# Whole-run bounds on TPDB Complexity_C_Integer", "",
         f"{started:%Y-%m-%d %H:%M} UTC, {elapsed / 60:.1f} min, {args.jobs} jobs, `--ints math --timeout {args.timeout}`; "
         f"{len(files)} files (each function called from a generated `main` with nondeterministic arguments).", "",
         "| figure | value |", "|---|---:|",
         f"| files | {len(files)} |",
         "| skipped | " + (", ".join(f"{k}: {v}" for k, v in skipped.items()) or "0") + " |",
         "| answers | " + ", ".join(f"{k} {v}" for k, v in sorted(answers.items(), key=lambda x: str(x[0]))) + " |",
         f"| with a bound for the whole run | {sum(classes.values())} |",
         "| ... by class | " + ", ".join(f"{k} {v}" for k, v in sorted(classes.items(), key=lambda x: degree_of(x[0]) or 0)) + " |",
         f"| files stating a class in a comment, answered | {len(stated)} |",
         f"| ... bound of the stated class | {len(agree)} |",
         f"| ... bound of a higher class | {len(above)} |",
         f"| ... bound of a lower class (a wrong bound or a wrong comment) | {len(below)} |", ""]
    if below:
        L.append("Lower than stated: " + ", ".join(f"`{r['file']}` ({r['complexity']}, stated {r['stated']})" for r in below))
        L.append("")
    text = "\n".join(L)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
        with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
