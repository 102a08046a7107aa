#!/usr/bin/env python3
"""How Tessera's cost grows with program size (issue "Scale").

Generates families of C programs parameterised by a size N, runs
`tessera emit` and `tessera prove --no-precondition` on each (one child at a
time), measures every child's wall time and peak resident memory (the
`ru_maxrss` that `wait4` reports for it), and writes

  * a Markdown report (default benchmarks/results/scale.md): a table per
    family and the fitted growth exponents (least-squares slope of
    log(time) and log(memory) against log(N));
  * an SVG chart next to it (same name, `.svg`): prove time and prove peak
    memory against N, log-log, one line per family.

Families (expected answer in brackets):

  chain           [YES] N sequential counting loops in `main` over inputs
  reactive_loop   [NO]  N state-machine components `step_k(in)` driven by a
                        `while (1)` loop that stops only on a bad input
  reactive_count  [YES] the same components driven by `for (t = n; t > 0; t--)`
  calls           [YES] f_1 -> f_2 -> ... -> f_N, each calling the next
                        inside a loop bounded by its argument (an input)

With --largest-other K the K largest tasks (by C file size) of
../shared/bench/other are also run with `tessera prove` (default options,
the task's data model, --timeout 30) and a table of their peak memory and
time is appended.

Example (from the repository root):

    benchmarks/scale.py --tessera target/release/tessera \\
        --sizes 1,2,4,8,16,32,64 --timeout 60 --largest-other 10
"""
import argparse
import datetime
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import load_average, machine, run_child  # noqa: E402

NONDET = "extern int __VERIFIER_nondet_int(void);"
ABORT = "extern void abort(void);"

# Extra seconds a child gets beyond its own --timeout before it is killed.
GRACE_S = 30


# ---------------------------------------------------------------------------
# Program families
# ---------------------------------------------------------------------------

def gen_chain(n):
    """N sequential terminating loops over inputs, each a little different."""
    out = [NONDET, "", "int main(void)", "{", "    unsigned int s = 0u;"]
    for k in range(1, n + 1):
        i, b = f"i_{k}", f"n_{k}"
        out.append(f"    int {i}, {b} = __VERIFIER_nondet_int();")
        v = k % 4
        if v == 0:
            out.append(f"    for ({i} = 0; {i} < {b}; {i}++) {{")
            out.append(f"        s += (unsigned int) {i};")
        elif v == 1:
            out.append(f"    for ({i} = {k}; {i} < {b}; {i}++) {{")
            out.append(f"        s += {3 * k}u;")
        elif v == 2:
            out.append(f"    for ({i} = {b}; {i} > 0; {i}--) {{")
            out.append(f"        s ^= (unsigned int) {i};")
        else:
            out.append(f"    for ({i} = -{k}; {i} < {b}; {i}++) {{")
            out.append(f"        if ({i} % 2 == 0) s += 1u; else s += {k}u;")
        out.append("    }")
    out += ["    return s == 0u ? 0 : 1;", "}", ""]
    return "\n".join(out)


def reactive_components(n):
    """N small eca-style state machines: globals st_k/out_k and step_k(in).

    Each has an error state (SV-COMP's eca programs reach `__VERIFIER_error`
    there) that ends the run, so every component's state decides which runs
    go on and none can be dropped from the model.
    """
    out = []
    for k in range(1, n + 1):
        a = 1 + k % 6        # input that arms the machine
        b = 1 + (k + 2) % 6  # input that moves it on
        c = 1 + (k + 4) % 6  # input that resets it
        out += [
            f"int st_{k} = 0;",
            f"int out_{k} = 0;",
            "",
            f"void step_{k}(int in)",
            "{",
            f"    if (st_{k} == 0) {{",
            f"        if (in == {a}) {{ st_{k} = 1; out_{k} = {k % 16}; }}",
            f"    }} else if (st_{k} == 1) {{",
            f"        if (in == {b}) st_{k} = 2;",
            f"        else if (in == {c}) {{ st_{k} = 0; out_{k} = 0; }}",
            "    } else {",
            f"        if (in > {1 + k % 3}) {{ st_{k} = 0; out_{k} = (out_{k} + 1) % 16; }}",
            f"        else if (out_{k} == {(k + 7) % 16}) abort();  /* error state: the run ends */",
            f"        else st_{k} = 1;",
            "    }",
            "}",
            "",
        ]
    return out


def reactive_body(n):
    body = [
        "        int in = __VERIFIER_nondet_int();",
        "        if (in < 1 || in > 6)",
        "            break;",
    ]
    body += [f"        step_{k}(in);" for k in range(1, n + 1)]
    return body


def gen_reactive_loop(n):
    """N components under `while (1)`: a run reading only valid inputs never ends."""
    out = [NONDET, ABORT, ""] + reactive_components(n)
    out += ["int main(void)", "{", "    while (1) {"] + reactive_body(n)
    out += ["    }", "    return 0;", "}", ""]
    return "\n".join(out)


def gen_reactive_count(n):
    """N components under a countdown loop: terminating."""
    out = [NONDET, ABORT, ""] + reactive_components(n)
    out += ["int main(void)", "{", "    int n = __VERIFIER_nondet_int();",
            "    for (int t = n; t > 0; t--) {"] + reactive_body(n)
    out += ["    }", "    return 0;", "}", ""]
    return "\n".join(out)


def gen_calls(n):
    """f_1 .. f_N, each looping up to its argument and calling the next."""
    out = [NONDET, "", "unsigned int acc = 0u;", ""]
    out += [f"void f_{k}(int x);" for k in range(1, n + 1)]
    out.append("")
    for k in range(1, n + 1):
        v = k % 3
        head = (f"    for (int i = x; i > 0; i--) {{" if v == 0
                else f"    for (int i = 0; i < x; i++) {{")
        out += [f"void f_{k}(int x)", "{", head, f"        acc += {k}u;"]
        if k < n:
            arg = "i" if v == 1 else "__VERIFIER_nondet_int()"
            out.append(f"        f_{k + 1}({arg});")
        out += ["    }", "}", ""]
    out += ["int main(void)", "{", "    f_1(__VERIFIER_nondet_int());",
            "    return (int) (acc % 2u);", "}", ""]
    return "\n".join(out)


FAMILIES = {
    # name: (generator, expected answer)
    "chain": (gen_chain, "YES"),
    "reactive_loop": (gen_reactive_loop, "NO"),
    "reactive_count": (gen_reactive_count, "YES"),
    "calls": (gen_calls, "YES"),
}


def write_program(folder, family, n):
    """Write the family's program of size n, check it with gcc; return (path, lines)."""
    gen, _ = FAMILIES[family]
    text = gen(n)
    path = os.path.join(folder, f"{family}_{n}.c")
    with open(path, "w") as f:
        f.write(text)
    check = subprocess.run(["gcc", "-fsyntax-only", "-std=c99", "-Wall", "-Wno-unused", path],
                           capture_output=True, text=True)
    if check.returncode != 0:
        raise SystemExit(f"generated program does not compile: {path}\n{check.stderr}")
    return path, text.count("\n")


def prove_answer(run):
    """The answer of a `prove --format json` run, or what went wrong."""
    if run.killed:
        return "killed"
    try:
        return json.loads(run.stdout)["answer"]
    except (ValueError, KeyError, TypeError):
        last = (run.stderr.strip().splitlines() or ["?"])[-1]
        return f"error ({run.status}: {last[:60]})"


def median(xs):
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def measure_family(tessera, family, sizes, folder, timeout, repeat, log):
    """Emit and prove every size of a family `repeat` times (medians kept);
    stop after a size whose proof takes the whole timeout."""
    _, expected = FAMILIES[family]
    rows = []
    for n in sizes:
        path, lines = write_program(folder, family, n)
        emits, proves, answers = [], [], []
        for _ in range(repeat):
            emits.append(run_child([tessera, "emit", path], timeout + GRACE_S, keep_stdout=False))
            proves.append(run_child([tessera, "prove", path, "--no-precondition", "--timeout",
                                     str(timeout), "--format", "json"], timeout + GRACE_S,
                                    keep_stdout=True))
            answers.append(prove_answer(proves[-1]))
            if proves[-1].wall >= timeout:
                break  # no point repeating a run that takes the whole timeout
        row = {
            "n": n, "lines": lines, "runs": len(proves),
            "emit_s": median([r.wall for r in emits]), "emit_mb": median([r.peak_mb for r in emits]),
            "emit_kb": emits[0].stdout_bytes / 1024.0, "emit_ok": all(r.status == 0 for r in emits),
            "prove_s": median([r.wall for r in proves]), "prove_cpu": median([r.cpu for r in proves]),
            "prove_mb": median([r.peak_mb for r in proves]),
            "prove_s_max": max(r.wall for r in proves), "prove_mb_max": max(r.peak_mb for r in proves),
            "answer": "/".join(sorted(set(answers))), "expected": expected,
        }
        rows.append(row)
        log(f"{family:15s} N={n:3d} lines={lines:5d} emit {row['emit_s']:6.2f}s {row['emit_mb']:7.1f}MB"
            f"  prove {row['prove_s']:6.2f}s (cpu {row['prove_cpu']:6.2f}s) {row['prove_mb']:7.1f}MB"
            f"  {row['answer']}  [{len(proves)} runs]")
        if row["prove_s"] >= timeout:
            log(f"{family}: N={n} took the whole timeout; larger sizes skipped")
            break
    return rows


# ---------------------------------------------------------------------------
# Growth fit
# ---------------------------------------------------------------------------

def slope(points):
    """Least-squares slope of log(y) against log(x), or None with < 2 points."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    if sxx == 0:
        return None
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx


def answered(rows):
    return [r for r in rows if r["answer"] in ("YES", "NO")]


def growth(rows, tail_from):
    """Exponents of prove time and memory (and emit) over the answered sizes."""
    ok = answered(rows)
    tail = [r for r in ok if r["n"] >= tail_from]
    return {
        "points": len(ok),
        "time": slope([(r["n"], r["prove_s"]) for r in ok]),
        "cpu": slope([(r["n"], r["prove_cpu"]) for r in ok]),
        "mem": slope([(r["n"], r["prove_mb"]) for r in ok]),
        "time_tail": slope([(r["n"], r["prove_s"]) for r in tail]),
        "mem_tail": slope([(r["n"], r["prove_mb"]) for r in tail]),
        "emit_size": slope([(r["n"], r["emit_kb"]) for r in ok]),
        "emit_mem": slope([(r["n"], r["emit_mb"]) for r in ok]),
    }


def verdict(exp):
    if exp is None:
        return "-"
    exp = round(exp, 2)  # judged as printed
    return f"{exp:.2f} (close to linear)" if exp <= 1.2 else f"{exp:.2f} (**super-linear**)"


def fmt(x, spec=".2f"):
    return "-" if x is None else format(x, spec)


# ---------------------------------------------------------------------------
# Largest tasks of ../shared/bench/other
# ---------------------------------------------------------------------------

def c_file_of(task_path):
    """The C file of a task: itself, or the input_files of a .yml definition."""
    if not task_path.endswith((".yml", ".yaml")):
        return task_path
    with open(task_path) as f:
        for line in f:
            if line.strip().startswith("input_files:"):
                name = line.split(":", 1)[1].strip().strip("'\"[] ")
                return os.path.join(os.path.dirname(task_path), name)
    return task_path


def largest_other(tessera, folder, k, timeout, log):
    """Run `prove` with default options on the k largest tasks of folder/verdicts.tsv."""
    with open(os.path.join(folder, "verdicts.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        tasks = [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]
    for t in tasks:
        t["path"] = os.path.join(folder, t["relative_path"])
        c = c_file_of(t["path"])
        t["size"] = os.path.getsize(c) if os.path.exists(c) else 0
    tasks.sort(key=lambda t: -t["size"])
    rows = []
    for t in tasks[:k]:
        argv = [tessera, "prove", t["path"], "--timeout", str(timeout), "--format", "json"]
        dm = t.get("data_model", "").strip().lower()
        if dm in ("ilp32", "lp64") and not t["path"].endswith((".yml", ".yaml")):
            argv += ["--data-model", dm]  # the task's own data model, as `tessera bench` does
        run = run_child(argv, timeout + GRACE_S, keep_stdout=True)
        answer = prove_answer(run)
        rows.append({"task": t["relative_path"], "size": t["size"], "mb": run.peak_mb,
                     "s": run.wall, "cpu": run.cpu, "answer": answer, "expected": t.get("expected", "")})
        log(f"other {t['relative_path'][:70]:70s} {t['size'] / 1024:7.0f}KB "
            f"{run.wall:6.2f}s {run.peak_mb:7.1f}MB {answer}")
    return rows


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------

def tessera_version(tessera):
    try:
        return subprocess.run([tessera, "--version"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def markdown(args, results, fits, other, svg_name, started, elapsed, loads):
    w = []
    w.append("# Scale: Tessera's cost against program size\n")
    w.append(f"Generated by `benchmarks/scale.py` on {started:%Y-%m-%d %H:%M} UTC "
             f"({elapsed / 60:.1f} min).\n")
    w.append(f"Machine: {machine()}. {tessera_version(args.tessera)}; one child at a time. "
             f"Load average (1/5/15 min) at the start {loads[0]}, at the end {loads[1]}: the machine "
             "is shared, so wall times carry other jobs' load; the CPU time (user + system of the "
             "child, all its threads) is less sensitive to it.\n")
    w.append("Command: `" + " ".join(["benchmarks/scale.py"] + sys.argv[1:]) + "`\n")
    w.append(f"Each program is run as `tessera emit FILE` and `tessera prove FILE --no-precondition "
             f"--timeout {args.timeout} --format json`; times are wall-clock seconds of the child, "
             "memory its peak resident set (`ru_maxrss` from `wait4`). "
             f"Each program is run {args.repeat} time(s); the medians are shown, and the largest wall time "
             "and peak memory of the runs (the portfolio races threads, so memory varies from run to run). "
             "A family stops at "
             "the first size whose proof takes the whole timeout.\n")
    w.append("## Growth\n")
    w.append("Least-squares slope of log(prove time) and log(prove peak memory) against log(N), "
             "over the sizes where `prove` answered YES or NO; an exponent of at most 1.2 counts as "
             f"close to linear. The tail columns fit only the sizes N >= {args.tail_from}, where the "
             "fixed start-up cost (about a second and the process's base memory) weighs less. The emit "
             "columns fit the size of the Horn clauses `emit` writes (the model the prover solves) and "
             "emit's peak memory; emit's times (well under a second) are too small to fit.\n")
    w.append("| family | expected | sizes answered | time exponent | memory exponent | "
             "CPU time exp. | time exp. (tail) | memory exp. (tail) | emit output exp. | emit memory exp. |")
    w.append("| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for fam, rows in results.items():
        g = fits[fam]
        w.append(f"| {fam} | {FAMILIES[fam][1]} | {g['points']} of {len(rows)} | {verdict(g['time'])} | "
                 f"{verdict(g['mem'])} | {fmt(g['cpu'])} | {fmt(g['time_tail'])} | {fmt(g['mem_tail'])} | "
                 f"{fmt(g['emit_size'])} | {fmt(g['emit_mem'])} |")
    w.append("")
    w.append(f"![prove time and memory against N]({svg_name})\n")
    for fam, rows in results.items():
        w.append(f"## {fam}\n")
        w.append(f"{FAMILIES[fam][0].__doc__.strip()} Expected: {FAMILIES[fam][1]}.\n")
        w.append("| N | program lines | emit s | emit peak MB | emit output KB | prove s | prove CPU s | "
                 "prove peak MB | max s | max MB | answer | runs |")
        w.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
        for r in rows:
            ans = r["answer"]
            if ans in ("YES", "NO") and ans != r["expected"]:
                ans += " (**wrong**)"
            emit_s = f"{r['emit_s']:.2f}" + ("" if r["emit_ok"] else " (failed)")
            w.append(f"| {r['n']} | {r['lines']} | {emit_s} | {r['emit_mb']:.1f} | {r['emit_kb']:.1f} | "
                     f"{r['prove_s']:.2f} | {r['prove_cpu']:.2f} | {r['prove_mb']:.1f} | "
                     f"{r['prove_s_max']:.2f} | {r['prove_mb_max']:.1f} | {ans} | {r['runs']} |")
        skipped = [n for n in args.sizes if n not in [r["n"] for r in rows]]
        if skipped:
            w.append(f"\nNot run (a smaller size took the whole timeout): N = {', '.join(map(str, skipped))}.")
        w.append("")
    if other is not None:
        w.append(f"## Largest tasks of ../shared/bench/other\n")
        w.append(f"The {len(other)} largest tasks by C file size, `tessera prove FILE --timeout "
                 f"{args.other_timeout} --format json` with default options (and the task's data model "
                 "from verdicts.tsv, as `tessera bench` passes it); the precondition search after a NO "
                 "is included.\n")
        w.append("| task | file KB | peak MB | s | CPU s | answer | expected |")
        w.append("| --- | ---: | ---: | ---: | ---: | --- | --- |")
        for r in other:
            w.append(f"| {r['task']} | {r['size'] / 1024:.0f} | {r['mb']:.1f} | {r['s']:.2f} | "
                     f"{r['cpu']:.2f} | {r['answer']} | {r['expected']} |")
        w.append("")
    return "\n".join(w)


COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]


def svg_panel(x0, y0, width, height, title, ylabel, series, sizes):
    """One log-log panel: series = [(name, color, [(n, y), ...])]."""
    ys = [y for _, _, pts in series for _, y in pts if y > 0]
    if not ys:
        ys = [1.0]
    lo = 10 ** math.floor(math.log10(min(ys)))
    hi = 10 ** math.ceil(math.log10(max(ys)))
    if hi <= lo:
        hi = lo * 10
    xlo, xhi = math.log2(min(sizes)), math.log2(max(sizes))
    if xhi == xlo:
        xhi = xlo + 1
    ml, mr, mt, mb = 60, 15, 30, 45
    pw, ph = width - ml - mr, height - mt - mb

    def px(n):
        return x0 + ml + (math.log2(n) - xlo) / (xhi - xlo) * pw

    def py(y):
        return y0 + mt + ph - (math.log10(y) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * ph

    s = [f'<text x="{x0 + ml + pw / 2}" y="{y0 + 18}" text-anchor="middle" font-weight="bold">{title}</text>',
         f'<rect x="{x0 + ml}" y="{y0 + mt}" width="{pw}" height="{ph}" fill="none" stroke="#000"/>']
    for n in sizes:  # x ticks
        x = px(n)
        s.append(f'<line x1="{x:.1f}" y1="{y0 + mt + ph}" x2="{x:.1f}" y2="{y0 + mt + ph + 5}" stroke="#000"/>')
        s.append(f'<line x1="{x:.1f}" y1="{y0 + mt}" x2="{x:.1f}" y2="{y0 + mt + ph}" stroke="#ddd"/>')
        s.append(f'<text x="{x:.1f}" y="{y0 + mt + ph + 18}" text-anchor="middle">{n}</text>')
    e = round(math.log10(lo))
    while 10 ** e <= hi * 1.0001:  # y ticks at powers of ten, minor at 2 and 5
        for m in (1, 2, 5):
            v = m * 10 ** e
            if v < lo * 0.9999 or v > hi * 1.0001:
                continue
            y = py(v)
            s.append(f'<line x1="{x0 + ml - (5 if m == 1 else 3)}" y1="{y:.1f}" x2="{x0 + ml}" y2="{y:.1f}" stroke="#000"/>')
            s.append(f'<line x1="{x0 + ml}" y1="{y:.1f}" x2="{x0 + ml + pw}" y2="{y:.1f}" stroke="#eee"/>')
            label = f"{v:g}"
            s.append(f'<text x="{x0 + ml - 8}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{label}</text>')
        e += 1
    s.append(f'<text x="{x0 + ml + pw / 2}" y="{y0 + height - 6}" text-anchor="middle">N (log scale)</text>')
    s.append(f'<text transform="translate({x0 + 14},{y0 + mt + ph / 2}) rotate(-90)" text-anchor="middle">{ylabel}</text>')
    # Reference slope 1 (linear growth) through the first point of the first series.
    first = next((pts[0] for _, _, pts in series if pts), None)
    if first:
        n1, y1 = first
        n2 = max(sizes)
        y2 = y1 * n2 / n1
        if y2 > hi:
            n2, y2 = n1 * hi / y1, hi
        s.append(f'<line x1="{px(n1):.1f}" y1="{py(y1):.1f}" x2="{px(n2):.1f}" y2="{py(y2):.1f}" '
                 'stroke="#888" stroke-dasharray="5,4"/>')
    for name, color, pts in series:
        pts = [(n, y) for n, y in pts if y > 0]
        if len(pts) > 1:
            path = " ".join(f"{px(n):.1f},{py(y):.1f}" for n, y in pts)
            s.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        for n, y in pts:
            s.append(f'<circle cx="{px(n):.1f}" cy="{py(y):.1f}" r="3" fill="{color}"/>')
    return s


def svg_chart(results, sizes):
    """Prove time and prove peak memory against N, log-log, one line per family."""
    width, height, legend_h = 1000, 420, 40
    fams = list(results)
    time_series = [(f, COLORS[i % len(COLORS)], [(r["n"], r["prove_s"]) for r in results[f]])
                   for i, f in enumerate(fams)]
    mem_series = [(f, COLORS[i % len(COLORS)], [(r["n"], r["prove_mb"]) for r in results[f]])
                  for i, f in enumerate(fams)]
    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + legend_h}" '
         'font-family="sans-serif" font-size="12">',
         f'<rect width="{width}" height="{height + legend_h}" fill="#fff"/>']
    s += svg_panel(0, 0, width / 2, height, "prove wall time", "seconds (log scale)", time_series, sizes)
    s += svg_panel(width / 2, 0, width / 2, height, "prove peak memory", "MB (log scale)", mem_series, sizes)
    x = 60
    y = height + 20
    for name, color, _ in time_series:
        s.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 24}" y2="{y - 4}" stroke="{color}" stroke-width="2"/>')
        s.append(f'<circle cx="{x + 12}" cy="{y - 4}" r="3" fill="{color}"/>')
        s.append(f'<text x="{x + 30}" y="{y}">{name}</text>')
        x += 40 + 8 * len(name)
    s.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 24}" y2="{y - 4}" stroke="#888" stroke-dasharray="5,4"/>')
    s.append(f'<text x="{x + 30}" y="{y}">linear (slope 1)</text>')
    s.append("</svg>")
    return "\n".join(s) + "\n"


# ---------------------------------------------------------------------------

def parse_args():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tessera", default=os.path.join(repo, "target", "release", "tessera"),
                    help="the tessera binary (default: target/release/tessera)")
    ap.add_argument("--sizes", default="1,2,4,8,16,32,64",
                    help="comma-separated program sizes N (default: 1,2,4,8,16,32,64)")
    ap.add_argument("--families", default=",".join(FAMILIES),
                    help=f"comma-separated families (default: {','.join(FAMILIES)})")
    ap.add_argument("--timeout", type=int, default=60,
                    help="prove --timeout in seconds for the generated programs (default: 60)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per generated program; the report shows medians (default: 1)")
    ap.add_argument("--tail-from", type=int, default=8,
                    help="smallest N of the tail fit (default: 8)")
    ap.add_argument("--largest-other", type=int, default=0, metavar="K",
                    help="also run prove on the K largest tasks of --other (default: 0, none)")
    ap.add_argument("--other", default=os.path.join(os.path.dirname(repo), "shared", "bench", "other"),
                    help="folder with verdicts.tsv for --largest-other (default: ../shared/bench/other)")
    ap.add_argument("--other-timeout", type=int, default=30,
                    help="prove --timeout for --largest-other tasks (default: 30)")
    ap.add_argument("--out", default=os.path.join(repo, "benchmarks", "results", "scale.md"),
                    help="Markdown report; the SVG chart is written next to it with the extension .svg "
                         "(default: benchmarks/results/scale.md)")
    ap.add_argument("--keep", metavar="DIR", help="write the generated programs here and keep them")
    args = ap.parse_args()
    args.sizes = sorted({int(x) for x in args.sizes.split(",") if x.strip()})
    args.families = [f.strip() for f in args.families.split(",") if f.strip()]
    unknown = [f for f in args.families if f not in FAMILIES]
    if unknown:
        ap.error(f"unknown families: {', '.join(unknown)}")
    if not os.access(args.tessera, os.X_OK):
        ap.error(f"no tessera binary at {args.tessera}")
    return args


def main():
    args = parse_args()

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    started = datetime.datetime.now(datetime.timezone.utc)
    t0 = time.monotonic()
    load_start = load_average()
    folder = args.keep or tempfile.mkdtemp(prefix="tessera-scale-")
    os.makedirs(folder, exist_ok=True)
    try:
        results = {f: measure_family(args.tessera, f, args.sizes, folder, args.timeout, args.repeat, log)
                   for f in args.families}
        other = (largest_other(args.tessera, args.other, args.largest_other, args.other_timeout, log)
                 if args.largest_other > 0 else None)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    fits = {f: growth(rows, args.tail_from) for f, rows in results.items()}
    out_dir = os.path.dirname(os.path.abspath(args.out))
    os.makedirs(out_dir, exist_ok=True)
    svg_path = os.path.splitext(args.out)[0] + ".svg"
    with open(svg_path, "w") as f:
        f.write(svg_chart(results, args.sizes))
    with open(args.out, "w") as f:
        f.write(markdown(args, results, fits, other, os.path.basename(svg_path), started,
                         time.monotonic() - t0, (load_start, load_average())))
    log(f"wrote {args.out} and {svg_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
