#!/usr/bin/env python3
"""Brute-force check of the termination preconditions in this folder.

Every *.c here starts with

    // inputs: x, y
    // weakest precondition: <C expression over the inputs>
    // kind: ...

and reads its inputs at the start of main with __VERIFIER_nondet_int(), in
the order of the `inputs` line. For each program this script

  1. rewrites the source: the nondet calls read from a table, every loop test
     (`while (c)`, `for (..; c; ..)`, the `while` of a do-while) becomes
     `__tick() && (c)`, `main` becomes an ordinary function, and every `int`
     becomes `long long` (mathematical integers are assumed; 64 bits are far
     more than the box and the step limit need, and any overflow that does
     happen aborts the check through -fsanitize=undefined);
  2. appends a harness that runs the program on every input tuple of a box
     (each input in -B..B) with a step limit (loop-test evaluations, counted
     over all loops of a run); a run that reaches the limit is cut off by
     longjmp and counted as non-terminating;
  3. compiles it with gcc and compares, for every tuple, "terminated within
     the limit" with the precondition evaluated in C on the same inputs.

It prints, per program, "ok" with the number of terminating / non-terminating
tuples and the largest number of steps any terminating run took (to show the
gap to the limit), or the first counterexample. The exit status is 0 iff
every program is ok.

Usage: check.py [--limit N] [--box B] [--pre EXPR] [--keep DIR] [FILE.c ...]
  --box B     each input ranges over -B..B (default by number of inputs:
              1 -> 1000, 2 -> 40, 3 -> 15)
  --limit N   step limit per run (default 100000)
  --pre EXPR  check EXPR instead of the header's precondition (one file only),
              e.g. to test a precondition that Tessera printed
  --keep DIR  write the generated C files to DIR
  --sufficient  only check that the runs where the precondition holds end
              (a proved precondition that is not the weakest)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BOX = {1: 1000, 2: 40, 3: 15, 4: 8}
DEFAULT_LIMIT = 100000


class CheckError(Exception):
    pass


def parse_header(text):
    """The values of the three header lines."""
    head = {}
    for line in text.splitlines()[:3]:
        m = re.match(r"//\s*(inputs|weakest precondition|kind):\s*(.*?)\s*$", line)
        if not m:
            raise CheckError("header line malformed: %r" % line)
        head[m.group(1)] = m.group(2)
    for key in ("inputs", "weakest precondition", "kind"):
        if key not in head:
            raise CheckError("header lacks '%s'" % key)
    inputs = [v.strip() for v in head["inputs"].split(",") if v.strip()]
    if not inputs or any(not re.fullmatch(r"[A-Za-z_]\w*", v) for v in inputs):
        raise CheckError("bad inputs line: %r" % head["inputs"])
    return inputs, head["weakest precondition"], head["kind"]


def strip_comments(src):
    """src with comments replaced by spaces (newlines kept, offsets kept)."""
    out = list(src)
    i, n = 0, len(src)
    while i < n:
        if src.startswith("//", i):
            while i < n and src[i] != "\n":
                out[i] = " "
                i += 1
        elif src.startswith("/*", i):
            end = src.find("*/", i + 2)
            if end < 0:
                raise CheckError("unterminated comment")
            for k in range(i, end + 2):
                if src[k] != "\n":
                    out[k] = " "
            i = end + 2
        elif src[i] in "\"'":
            q = src[i]
            i += 1
            while i < n and src[i] != q:
                i += 2 if src[i] == "\\" else 1
            i += 1
        else:
            i += 1
    return "".join(out)


def matching_paren(code, open_at):
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "(":
            depth += 1
        elif code[k] == ")":
            depth -= 1
            if depth == 0:
                return k
    raise CheckError("unbalanced parentheses")


def split_top(s, sep):
    parts, depth, start = [], 0, 0
    for k, c in enumerate(s):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(s[start:k])
            start = k + 1
    parts.append(s[start:])
    return parts


def instrument(code):
    """Count one step at every evaluation of a loop test."""
    if re.search(r"\bgoto\b", code):
        raise CheckError("goto is not supported by the checker")
    edits = []  # (start, end, replacement) of the text inside the parentheses
    for m in re.finditer(r"\b(while|for)\s*\(", code):
        open_at = m.end() - 1
        close = matching_paren(code, open_at)
        inner = code[open_at + 1:close]
        if m.group(1) == "while":
            new = "__tick() && (%s)" % inner
        else:
            parts = split_top(inner, ";")
            if len(parts) != 3:
                raise CheckError("cannot parse for header: for (%s)" % inner)
            cond = parts[1].strip()
            parts[1] = " __tick() && (%s)" % cond if cond else " __tick()"
            new = ";".join(parts)
        edits.append((open_at + 1, close, new))
    if not edits:
        raise CheckError("no loop found")
    # loop headers do not overlap (a loop test contains no loop), apply from the end
    for start, end, new in sorted(edits, reverse=True):
        code = code[:start] + new + code[end:]
    return code, len(edits)


def transform(src, inputs):
    code = strip_comments(src)
    decl = re.compile(r"extern\s+int\s+__VERIFIER_nondet_int\s*\(\s*(void)?\s*\)\s*;")
    code = decl.sub("", code)
    read = re.findall(r"\bint\s+(\w+)\s*=\s*__VERIFIER_nondet_int\s*\(\s*\)", code)
    if read != inputs:
        raise CheckError("inputs read in main %s differ from the header %s" % (read, inputs))
    if len(re.findall(r"__VERIFIER_nondet_int", code)) != len(inputs):
        raise CheckError("a nondet call outside the input declarations")
    code = re.sub(r"__VERIFIER_nondet_int\s*\(\s*\)", "__nondet()", code)
    code, loops = instrument(code)
    code, k = re.subn(r"\bint\s+main\s*\(\s*(void)?\s*\)", "static int __program_main(void)", code)
    if k != 1:
        raise CheckError("no `int main(void)`")
    # Mathematical integers, approximated by 64 bits (overflow traps, see -fsanitize).
    code = re.sub(r"\bint\b", "long long", code)
    return code, loops


PRELUDE = r"""
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#define NIN %(nin)d
static long long __in[NIN];
static int __next;
static volatile long long __steps;
static long long __limit;
static jmp_buf __cutoff;

static long long __nondet(void) {
  if (__next >= NIN) { fprintf(stderr, "more nondet reads than inputs\n"); exit(3); }
  return __in[__next++];
}

static int __tick(void) {
  if (++__steps > __limit) longjmp(__cutoff, 1);
  return 1;
}
"""

HARNESS = r"""
static int __pre(%(params)s) { return (%(pre)s) != 0; }

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: BOX LIMIT\n"); return 2; }
  long long box = atoll(argv[1]);
  __limit = atoll(argv[2]);
  long long v[NIN];
  long long terminating = 0, looping = 0, max_steps = 0;
  for (int k = 0; k < NIN; k++) v[k] = -box;
  for (;;) {
    for (int k = 0; k < NIN; k++) __in[k] = v[k];
    __next = 0;
    __steps = 0;
    int cut = 0;
    if (setjmp(__cutoff))
      cut = 1;
    else
      __program_main();
    if (__next != NIN) { fprintf(stderr, "only %%d of %%d inputs read\n", __next, NIN); return 3; }
    int pre = __pre(%(args)s);
    /* Exact: terminates iff the precondition holds; sufficient: where it holds. */
    if (pre ? cut : (!%(sufficient)d && !cut)) {
      printf("COUNTEREXAMPLE");
      for (int k = 0; k < NIN; k++) printf(" %%lld", v[k]);
      printf(" | precondition %%s, run %%s\n", pre ? "holds" : "fails",
             cut ? "still running at the step limit" : "terminated");
      printf("steps %%lld\n", (long long)__steps);
      return 1;
    }
    if (cut) {
      looping++;
    } else {
      terminating++;
      if (__steps > max_steps) max_steps = __steps;
    }
    int k = NIN - 1;
    while (k >= 0 && v[k] == box) { v[k] = -box; k--; }
    if (k < 0) break;
    v[k]++;
  }
  printf("OK %%lld %%lld %%lld\n", terminating, looping, max_steps);
  return 0;
}
"""


def build(path, pre_override, workdir, keep, sufficient=False):
    with open(path) as f:
        src = f.read()
    inputs, pre, kind = parse_header(src)
    if pre_override is not None:
        pre = pre_override
    code, loops = transform(src, inputs)
    nin = len(inputs)
    params = ", ".join("long long %s" % v for v in inputs)
    args = ", ".join("v[%d]" % k for k in range(nin))
    text = (PRELUDE % {"nin": nin}) + "\n#line 1 \"%s\"\n" % os.path.basename(path) + code + \
        (HARNESS % {"params": params, "pre": pre, "args": args, "sufficient": int(sufficient)})
    name = os.path.splitext(os.path.basename(path))[0]
    csrc = os.path.join(keep or workdir, name + ".check.c")
    exe = os.path.join(workdir, name)
    with open(csrc, "w") as f:
        f.write(text)
    cmd = ["gcc", "-std=gnu11", "-O2", "-w", "-fsanitize=undefined", "-fno-sanitize-recover=undefined",
           "-o", exe, csrc]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise CheckError("gcc failed:\n" + res.stderr)
    return exe, inputs, pre, kind, loops


def check(path, args, workdir):
    exe, inputs, pre, kind, loops = build(path, args.pre, workdir, args.keep, args.sufficient)
    box = args.box if args.box is not None else DEFAULT_BOX.get(len(inputs), 6)
    res = subprocess.run([exe, str(box), str(args.limit)], capture_output=True, text=True, timeout=3600)
    out = res.stdout.strip()
    desc = "%d input%s in -%d..%d" % (len(inputs), "" if len(inputs) == 1 else "s", box, box)
    if res.returncode == 0 and out.startswith("OK "):
        t, l, m = (int(x) for x in out.split()[1:4])
        return True, "ok  (%s: %d terminate, %d run past %d steps; longest terminating run %d steps)" % (
            desc, t, l, args.limit, m)
    if res.returncode == 1 and out.startswith("COUNTEREXAMPLE"):
        line = out.splitlines()[0][len("COUNTEREXAMPLE "):]
        values, verdict = line.split(" | ")
        assignment = ", ".join("%s = %s" % p for p in zip(inputs, values.split()))
        return False, "FAIL counterexample %s: %s" % (assignment, verdict)
    return False, "FAIL (exit %d)\n%s\n%s" % (res.returncode, out, res.stderr.strip())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*")
    ap.add_argument("--limit", type=int, default=DEFAULT_LIMIT)
    ap.add_argument("--box", type=int)
    ap.add_argument("--pre")
    ap.add_argument("--keep")
    ap.add_argument("--sufficient", action="store_true",
                    help="only check that every run where the precondition holds terminates")
    args = ap.parse_args()
    files = args.files or sorted(os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".c"))
    if args.pre is not None and len(files) != 1:
        ap.error("--pre needs exactly one file")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    failed = 0
    width = max(len(os.path.basename(f)) for f in files)
    with tempfile.TemporaryDirectory() as workdir:
        for path in files:
            try:
                ok, msg = check(path, args, workdir)
            except (CheckError, subprocess.TimeoutExpired) as e:
                ok, msg = False, "FAIL %s" % e
            failed += not ok
            print("%-*s  %s" % (width, os.path.basename(path), msg), flush=True)
    print("%d of %d programs ok" % (len(files) - failed, len(files)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
