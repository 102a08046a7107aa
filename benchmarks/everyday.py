#!/usr/bin/env python3
"""What a user reads on everyday programs (issue 58): runs `tessera prove`
on every program of a folder (default tests/c/everyday), each headed by

    // expected: YES|NO
    // undefined: none | <line> <kind>

and counts, per program: the answer against the expected one (a wrong YES
or NO is an error), the `warning:` lines printed by default (none is
expected where the program has no undefined behaviour; one at the stated
line where it has), and model-internal names in the default text and JSON
(`.base`, `.off`, `#`, `%`, `loop_L`, `node.`).

    benchmarks/everyday.py [--tessera target/release/tessera] [--timeout 30] [DIR]
"""
import argparse, json, os, re, subprocess, sys

# (`a heap block #4` in an execution's state is the interpreter's word for an
# allocated block, not a model name.)
INTERNAL = re.compile(r"\.base\b|\.off\b|\.size\b|(?<!block )#|%\d|loop_L\d|alloc\.|:(down|up|pending|newest|cache)")

def header(path):
    exp, ub = None, None
    with open(path) as f:
        for line in f.readlines()[:3]:
            m = re.match(r"//\s*expected:\s*(YES|NO|MAYBE)", line)
            if m:
                exp = m.group(1)
            m = re.match(r"//\s*undefined:\s*(none|(\d+)\s+(\S+))", line)
            if m:
                ub = None if m.group(1) == "none" else int(m.group(2))
    return exp, ub

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", nargs="?", default="tests/c/everyday")
    ap.add_argument("--tessera", default="target/release/tessera")
    ap.add_argument("--timeout", default="30")
    a = ap.parse_args()
    rows, wrong, false_warn, missed_warn, internal = [], 0, 0, 0, 0
    for name in sorted(os.listdir(a.dir)):
        if not name.endswith(".c"):
            continue
        path = os.path.join(a.dir, name)
        exp, ub = header(path)
        text = subprocess.run([a.tessera, "prove", path, "--timeout", a.timeout], capture_output=True, text=True).stdout
        js = subprocess.run([a.tessera, "prove", path, "--timeout", a.timeout, "--format", "json"], capture_output=True, text=True).stdout
        answer = text.split("\n", 1)[0].rsplit(": ", 1)[-1].strip()
        warned = [int(m.group(1)) for m in re.finditer(r"^warning: [^:]+:(\d+):\d+:", text, re.M)]
        notes = len(re.findall(r"^note: .*not shown free", text, re.M))
        leaks = sorted(set(m.group(0) for m in INTERNAL.finditer(text + json.dumps(json.loads(js) if js.strip() else {}).replace(a.dir, ""))))
        bad = answer in ("YES", "NO") and exp in ("YES", "NO") and answer != exp
        wrong += bad
        fw = ub is None and bool(warned)
        mw = ub is not None and ub not in warned
        false_warn += fw
        missed_warn += mw
        internal += bool(leaks)
        rows.append((name, exp, answer, "wrong" if bad else "", ",".join(map(str, warned)) or "-", notes, " ".join(leaks)))
    print("| program | expected | answer | | warnings at lines | unchecked notes | internal names |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    n = len(rows)
    print(f"\n{n} programs: {sum(r[2] == r[1] for r in rows)} answered as expected, {wrong} wrong, "
          f"{false_warn} with a warning but no undefined behaviour, {missed_warn} with undefined behaviour not warned, "
          f"{internal} with an internal name in the default output")
    return 1 if wrong else 0

if __name__ == "__main__":
    sys.exit(main())
