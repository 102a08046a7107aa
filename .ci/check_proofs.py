#!/usr/bin/env python3
"""Checks that printed proofs are in the program's terms (issue 16, item 5).

Runs `tessera prove --ints math --format json --timeout T` on the
integer-only programs of a verdict index's details.tsv (column `int_only`)
and reports every ranking function, invariant, recurrent set and stem state
that contains an internal name (`%`, `#`, `|`, `mem1[`), an SMT-LIB
S-expression (`(and `, `(>= `, ...), a duplicated conjunct, or a coefficient
of more than 6 digits. Prints one line per violation and a summary; exits 1
when there is a violation.

Usage: .ci/check_proofs.py [DETAILS_TSV] [--tessera BIN] [--jobs 2] [--timeout 10]
"""
import argparse, concurrent.futures as cf, csv, json, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEXPR = re.compile(r"\((and|or|not|>=|<=|=|<|>|\+|-|\*|ite|div|mod) ")
# `tmp%1`, `r#0`, SMT quotes `|x|` (not C's `||` nor `a % 2`), `mem1[0]`.
INTERNAL = re.compile(r"\w[%#]\w|(?<![|])[|](?![|])|\bmem\d+\[")
BIG = re.compile(r"\d{7,}")


def conjuncts(s):
    depth, cur, out = 0, "", []
    i = 0
    while i < len(s):
        c = s[i]
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and s.startswith(" && ", i):
            out.append(cur.strip()); cur = ""; i += 4; continue
        cur += c; i += 1
    out.append(cur.strip())
    return out


def problems(text):
    found = []
    if SEXPR.search(text): found.append("S-expression")
    if INTERNAL.search(text): found.append("internal name")
    if BIG.search(text): found.append("coefficient > 6 digits")
    cs = conjuncts(text)
    if len(cs) != len(set(cs)): found.append("duplicated conjunct")
    return found


def texts(j):
    for l in j.get("loops", []):
        yield "ranking function", l.get("ranking_function", "")
        yield "invariant", l.get("invariant", "")
    w = j.get("witness")
    if w:
        yield "recurrent set", w.get("recurrent_set", "")
        for st in w.get("stem", []):
            yield "stem state", " && ".join(f"{k} == {v}" for k, v in st.get("state", {}).items())
    if "reason" in j:
        r = j["reason"]
        yield "reason", r if "\n" not in r else r + " (several lines)"


def run(tessera, path, timeout):
    p = subprocess.run([tessera, "prove", "--ints", "math", "--format", "json", "--timeout", str(timeout), path],
                       capture_output=True, text=True)
    try:
        return path, json.loads(p.stdout)
    except ValueError:
        return path, {"answer": "ERROR", "reason": p.stderr[-200:]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("details", nargs="?", default=os.path.join(ROOT, "../shared/bench/c/details.tsv"))
    ap.add_argument("--tessera", default=os.path.join(ROOT, "target/release/tessera"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=10)
    a = ap.parse_args()
    base = os.path.dirname(a.details)
    with open(a.details) as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r.get("int_only") == "1"]
    paths = [os.path.join(base, r["relative_path"]) for r in rows]
    violations, answers = 0, {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for path, j in ex.map(lambda p: run(a.tessera, p, a.timeout), paths):
            answers[j.get("answer")] = answers.get(j.get("answer"), 0) + 1
            for what, text in texts(j):
                for p in problems(text) if what != "reason" else (["multi-line reason"] if "\n" in text else []):
                    violations += 1
                    print(f"{os.path.relpath(path, base)}: {what}: {p}: {text}")
    print(f"{len(paths)} programs, answers {answers}, {violations} violations")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
