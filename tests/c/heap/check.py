#!/usr/bin/env python3
"""Checks the claims in the headers of the heap programs in this folder.

Every program is compiled with

    gcc -std=c99 -O0 -fsanitize=undefined,address -fno-sanitize-recover=all

together with a stub of `__VERIFIER_nondet_int`. The stub returns the
comma-separated values of the environment variable NONDET first; after them
it returns 0 (NONDET_REST unset) or seeded random values (NONDET_REST=random).
Without NONDET it returns seeded random values (seed from SEED): small values
-5..20, values in 0..1000, boundary values (INT_MIN, -1, 0, 1, 15, 16, 100,
500, 1000, 1001, INT_MAX, ...) and fully random ones.

* ok_*: RUNS random runs plus BIG runs whose first input (the size) is 1000
  or 500; every run must end within the timeout with no sanitizer report
  (leaks included) and exit normally; programs in SELF_CHECK must exit 0.
* loop_*: the input of the `// loops for:` line (LOOPING below) is replayed;
  the run must still be running when `timeout 2` kills it (exit 124) with
  no sanitizer report. loop_recursive_cycle recurses without end, so a real
  run dies of stack overflow instead: there the run must end with an ASan
  stack-overflow report (in `length`) and nothing else; in addition it is
  built at -O2 without sanitizers, where gcc turns the recursion into a
  loop, and that run must still be running after 2 s. Random runs must show
  no sanitizer report (stack overflow allowed in loop_recursive_cycle).

    python3 check.py [--runs 300] [--jobs N] [--keep]
"""
import argparse, collections, concurrent.futures, os, random, re, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CFLAGS = ["-std=c99", "-O0", "-fsanitize=undefined,address", "-fno-sanitize-recover=all", "-g"]
TIMEOUT = "2"

# Input sequences from the `// loops for:` lines, in the order the program reads them.
LOOPING = {
    "loop_walk_no_advance.c": "1,-1",
    "loop_circular_insert.c": "2,1,2",
    "loop_reverse_bug.c": "2,0,0",
    "loop_delete_no_advance.c": "1,5,5",
    "loop_bst_cycle.c": "2,5,5,6",
    "loop_recursive_cycle.c": "2,0,0",
}
RECURSIVE = {"loop_recursive_cycle.c"}
# Programs that compare their result with what they built and exit 0 when it matches.
SELF_CHECK = {
    "ok_build_walk_free.c", "ok_append_walk_to_end.c", "ok_reverse.c", "ok_delete_key.c",
    "ok_insert_sorted.c", "ok_merge.c", "ok_recursive_length.c", "ok_dll.c",
    "ok_bst_recursive.c", "ok_stack_push_pop.c", "ok_queue.c", "ok_find_max.c",
    "ok_copy_list.c", "ok_split_alternate.c", "ok_remove_duplicates_sorted.c",
}

STUB = r"""
#include <limits.h>
#include <stdlib.h>

static int started;
static const char *seq;
static int rest_random;
static unsigned long long state = 88172645463325252ULL;

static unsigned long long next_random(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static int random_value(void) {
  static const int boundary[] = {INT_MIN, INT_MIN + 1, -1000, -2, -1, 0, 1, 2, 3, 5, 10, 15, 16,
                                 17, 99, 100, 101, 499, 500, 501, 999, 1000, 1001, INT_MAX - 1, INT_MAX};
  unsigned long long r = next_random() % 100;
  if (r < 45)
    return (int)(next_random() % 26) - 5;          /* -5..20 */
  if (r < 70)
    return (int)(next_random() % 1001);            /* 0..1000 */
  if (r < 85)
    return boundary[next_random() % (sizeof boundary / sizeof boundary[0])];
  return (int)(unsigned)(next_random() >> 32);     /* any int */
}

int __VERIFIER_nondet_int(void) {
  if (!started) {
    started = 1;
    seq = getenv("NONDET");
    const char *r = getenv("NONDET_REST");
    rest_random = r != NULL && r[0] == 'r';
    const char *s = getenv("SEED");
    if (s != NULL)
      state ^= strtoull(s, NULL, 10) * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 10; i++)
      next_random();
  }
  if (seq != NULL && *seq != '\0') {
    char *end;
    long v = strtol(seq, &end, 10);
    seq = *end == ',' ? end + 1 : end;
    return (int)v;
  }
  if (seq != NULL && !rest_random)
    return 0;
  return random_value();
}
"""

SANITIZER = re.compile(r"runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer|SUMMARY: \w+Sanitizer")


def run(binary, env_extra):
    env = dict(os.environ)
    env.pop("NONDET", None)
    env.pop("NONDET_REST", None)
    env.update(env_extra)
    env["ASAN_OPTIONS"] = "detect_leaks=1:abort_on_error=0"
    env["UBSAN_OPTIONS"] = "print_stacktrace=1"
    p = subprocess.run(["timeout", TIMEOUT, binary], env=env, capture_output=True, text=True, errors="replace")
    return p.returncode, p.stderr


def compile_all(tmp, names):
    stub = os.path.join(tmp, "stub.c")
    with open(stub, "w") as f:
        f.write(STUB)
    bins = {}
    for name in names:
        out = os.path.join(tmp, name[:-2])
        p = subprocess.run(["gcc", *CFLAGS, "-Wall", "-Wextra", os.path.join(HERE, name), stub, "-o", out],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"{name}: does not compile:\n{p.stderr}")
        warnings = [l for l in p.stderr.splitlines() if "warning:" in l and "stub.c" not in l]
        if warnings:
            print(f"{name}: compiler warnings:\n  " + "\n  ".join(warnings))
        bins[name] = out
    return bins, stub


def header(name):
    with open(os.path.join(HERE, name)) as f:
        lines = f.read().splitlines()
    exp = re.match(r"// expected: (YES|NO)$", lines[0])
    assert exp, f"{name}: line 1 is not `// expected: YES|NO`"
    assert lines[1].startswith("// ") and len(lines[1]) > 10, f"{name}: line 2 does not say what it does"
    loops = lines[2][len("// loops for: "):] if lines[2].startswith("// loops for: ") else None
    decl = "extern int __VERIFIER_nondet_int(void);" in lines and "#include <stdlib.h>" in lines
    assert decl, f"{name}: nondet declaration or stdlib.h missing"
    assert 20 <= len(lines) <= 60, f"{name}: {len(lines)} lines"
    return exp.group(1), loops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--big", type=int, default=20, help="runs with the first input 1000 (and 500) per ok_ program")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()

    names = sorted(n for n in os.listdir(HERE) if n.endswith(".c"))
    problems = []
    for n in names:
        exp, loops = header(n)
        if n.startswith("ok_") and (exp != "YES" or loops):
            problems.append(f"{n}: ok_ program must say YES and have no loops-for line")
        if n.startswith("loop_") and (exp != "NO" or not loops or n not in LOOPING):
            problems.append(f"{n}: loop_ program must say NO, have a loops-for line and a replay input")

    tmp = tempfile.mkdtemp(prefix="heap-check-")
    bins, stub = compile_all(tmp, names)
    pool = concurrent.futures.ThreadPoolExecutor(a.jobs)
    rows = []

    for n in names:
        b = bins[n]
        if n.startswith("ok_"):
            envs = [{"SEED": str(s)} for s in range(a.runs)]
            envs += [{"NONDET": size, "NONDET_REST": "random", "SEED": str(10000 + s)}
                     for s in range(a.big) for size in ("1000", "500")]
            results = list(pool.map(lambda e: run(b, e), envs))
            codes = collections.Counter(rc for rc, _ in results)
            bad = [(e, rc, err) for e, (rc, err) in zip(envs, results)
                   if SANITIZER.search(err) or rc not in (0, 1) or (n in SELF_CHECK and rc != 0)]
            for e, rc, err in bad[:3]:
                problems.append(f"{n}: {e} -> exit {rc}\n{err[-2000:]}")
            verdict = "ok" if not bad else f"{len(bad)} BAD"
            rows.append((n, f"{len(envs)} runs, exits {dict(sorted(codes.items()))}", verdict))
        else:
            # Replay of the documented looping input.
            rc, err = run(b, {"NONDET": LOOPING[n]})
            if n in RECURSIVE:
                other = SANITIZER.search(err.replace("ERROR: AddressSanitizer: stack-overflow", "").replace("SUMMARY: AddressSanitizer: stack-overflow", ""))
                good = "AddressSanitizer: stack-overflow" in err and " in length " in err and not other
                replay = f"replay {LOOPING[n]}: exit {rc}, " + ("ASan stack-overflow in length" if good else "UNEXPECTED")
                if not good:
                    problems.append(f"{n}: replay -> exit {rc}\n{err[-2000:]}")
                # Without sanitizers at -O2 gcc makes the recursion a loop: the run never ends.
                o2 = os.path.join(tmp, n[:-2] + "_O2")
                subprocess.run(["gcc", "-std=c99", "-O2", os.path.join(HERE, n), stub, "-o", o2], check=True)
                env = dict(os.environ, NONDET=LOOPING[n])
                rc2 = subprocess.run(["timeout", TIMEOUT, o2], env=env, capture_output=True).returncode
                replay += f"; -O2 build: exit {rc2}" + (" (still running after 2 s)" if rc2 == 124 else " UNEXPECTED")
                if rc2 != 124:
                    problems.append(f"{n}: -O2 replay ended with exit {rc2}")
            else:
                good = rc == 124 and not SANITIZER.search(err)
                replay = f"replay {LOOPING[n]}: " + ("still running after 2 s, no report" if good else f"UNEXPECTED exit {rc}")
                if not good:
                    problems.append(f"{n}: replay -> exit {rc}\n{err[-2000:]}")
            # Random runs: no sanitizer report, whether the run ends or loops.
            envs = [{"SEED": str(s)} for s in range(a.runs)]
            results = list(pool.map(lambda e: run(b, e), envs))
            looped = sum(1 for rc, _ in results if rc == 124)
            overflow = sum(1 for rc, err in results if "stack-overflow" in err)
            bad = []
            for e, (rc, err) in zip(envs, results):
                s = err
                if n in RECURSIVE:
                    s = s.replace("ERROR: AddressSanitizer: stack-overflow", "").replace("SUMMARY: AddressSanitizer: stack-overflow", "")
                if SANITIZER.search(s) or (rc not in (0, 1, 124) and not (n in RECURSIVE and "stack-overflow" in err)):
                    bad.append((e, rc, err))
            for e, rc, err in bad[:3]:
                problems.append(f"{n}: {e} -> exit {rc}\n{err[-2000:]}")
            random_part = f"{len(envs)} random runs: {len(envs) - looped - overflow} ended, {looped} killed by timeout"
            if n in RECURSIVE:
                random_part += f", {overflow} stack overflow"
            rows.append((n, replay + "; " + random_part, "ok" if good and not bad else "BAD"))

    pool.shutdown()
    if not a.keep:
        shutil.rmtree(tmp)
    print("| file | result | verdict |")
    print("|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    if problems:
        print("\nPROBLEMS:")
        for p in problems:
            print("- " + p)
        sys.exit(1)
    print(f"\nall claims hold ({len(names)} programs)")


if __name__ == "__main__":
    main()
