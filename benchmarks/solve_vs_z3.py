#!/usr/bin/env python3
"""`tessera solve` against the z3 binary on the same Horn clause files.

Runs Tessera's CHC solver (`tessera solve --timeout T FILE`) and z3
(`z3 -T:T FILE`) on the same SMT-LIB Horn files, one after the other for
each problem (never at the same time as each other), measures every child's
wall time, CPU time (user + system of the child and all its threads, from the
`rusage` that `wait4` reports) and peak resident memory (`ru_maxrss`), and
writes a Markdown report (default benchmarks/results/solve_vs_z3.md).

Problem sets:

  chc    every problem of --chc DIR/verdicts.tsv (default ../shared/bench/chc
         beside the repository): column 1 the .smt2 file relative to DIR,
         column 2 the expected answer (sat/unsat).
  other  the --largest N largest Horn clause files that `tessera emit`
         writes for the C tasks of --other DIR/verdicts.tsv (default
         ../shared/bench/other; column 4 the data model ILP32/LP64, passed
         as `--data-model` when `emit --help` offers it). Every task is
         emitted (with a 60 s limit each, --emit-jobs at a time; several
         minutes for the whole list, progress on stderr), the N largest
         outputs are kept in the --work directory as .smt2 files. Their
         answer is not known in advance (`-` in the report); an answer of
         one solver that contradicts the other's is counted as a
         disagreement.

Answers: the first line of standard output; sat/unsat count, anything else
(unknown, timeout, a crash, an error) is unknown. An answer contradicting
the expected one is WRONG; "solved" means answered sat/unsat and not wrong.
Every child is started in its own process group, which is killed after
T + 30 s.

Summary per set: problems, solved by each and by both, wrong answers, and
on the problems both solved: total wall and CPU time of each and their
ratio tessera/z3, the median per-problem wall-time ratio, the median and
largest per-problem peak-memory ratio, the largest peak memory of each.

Examples (from the repository root):

    benchmarks/solve_vs_z3.py --tessera target/release/tessera
    benchmarks/solve_vs_z3.py --tessera /tmp/tessera --only chc --limit 5 \\
        --timeout 10 --out /tmp/svz/report.md --csv /tmp/svz/rows.csv
    benchmarks/solve_vs_z3.py --tessera /tmp/tessera --only other \\
        --emit-limit 30 --largest 3 --work /tmp/svz/work
"""
import argparse
import concurrent.futures
import csv
import datetime
import heapq
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from measure import load_average, machine, run_child  # noqa: E402

# Extra seconds a child gets beyond its own timeout before its process group is killed.
GRACE_S = 30
# Limit of one `tessera emit`.
EMIT_LIMIT_S = 60

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_print_lock = threading.Lock()


def log(msg):
    with _print_lock:
        print(msg, file=sys.stderr, flush=True)


def answer_of(run):
    """(answer, note): answer sat/unsat/unknown, note says why an unknown is one."""
    first = run.first_line
    if first in ("sat", "unsat"):
        return first, ""
    if run.killed:
        return "unknown", "killed"
    if first in ("unknown", "timeout"):
        return "unknown", "" if first == "unknown" else "timeout"
    last = (run.stderr.strip().splitlines() or [first or "?"])[-1]
    return "unknown", f"exit {run.status}: {last[:50]}"


# ---------------------------------------------------------------------------
# Problem sets
# ---------------------------------------------------------------------------

def read_tsv(path):
    """Rows of a verdicts.tsv (header line skipped) as lists of columns."""
    with open(path) as f:
        f.readline()
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def chc_problems(folder):
    probs = []
    for cols in read_tsv(os.path.join(folder, "verdicts.tsv")):
        rel = cols[0]
        expected = cols[1].strip() if len(cols) > 1 else "-"
        if expected not in ("sat", "unsat"):
            expected = "-"
        probs.append({"set": "chc", "file": os.path.join(folder, rel),
                      "name": "/".join(rel.split("/")[-2:]), "expected": expected})
    return probs


def emit_has_data_model(tessera):
    try:
        help_text = subprocess.run([tessera, "emit", "--help"], capture_output=True, text=True,
                                   timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--data-model" in help_text


def safe_name(rel):
    return rel.replace("/", "__").replace(" ", "_")


def other_problems(tessera, folder, largest, work, emit_jobs, emit_limit):
    """Emit every task of folder/verdicts.tsv, keep the `largest` biggest outputs."""
    rows = read_tsv(os.path.join(folder, "verdicts.tsv"))
    if emit_limit is not None:
        rows = rows[:emit_limit]
    with_dm = emit_has_data_model(tessera)
    log(f"emit: {len(rows)} tasks, {emit_jobs} at a time, data model option "
        f"{'passed' if with_dm else 'not available'}; keeping the {largest} largest in {work}")
    emit_dir = os.path.join(work, "emit")
    os.makedirs(emit_dir, exist_ok=True)

    def emit(i, cols):
        rel = cols[0]
        argv = [tessera, "emit"]
        dm = cols[3].strip().lower() if len(cols) > 3 else ""
        if with_dm and dm in ("ilp32", "lp64"):
            argv += ["--data-model", dm]
        argv.append(os.path.join(folder, rel))
        path = os.path.join(emit_dir, f"{i:04d}.smt2")
        run = run_child(argv, EMIT_LIMIT_S, stdout_path=path)
        return i, rel, path, run

    kept = []  # min-heap of (size, index, rel, path)
    failed = []
    done = 0
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, emit_jobs)) as pool:
        futures = [pool.submit(emit, i, cols) for i, cols in enumerate(rows)]
        for fut in concurrent.futures.as_completed(futures):
            i, rel, path, run = fut.result()
            done += 1
            if run.killed or run.status != 0:
                failed.append((rel, "killed" if run.killed else f"exit {run.status}"))
                os.remove(path)
            else:
                heapq.heappush(kept, (run.stdout_bytes, i, rel, path))
                if len(kept) > largest:
                    _, _, _, small = heapq.heappop(kept)
                    os.remove(small)
            if done % 10 == 0 or done == len(rows):
                log(f"emit: {done}/{len(rows)} done, {len(failed)} failed, "
                    f"{time.monotonic() - start:.0f}s")
    probs = []
    for size, i, rel, path in sorted(kept, key=lambda k: (-k[0], k[1])):
        dest = os.path.join(work, safe_name(rel) + ".smt2")
        os.replace(path, dest)
        probs.append({"set": "other", "file": dest, "name": rel, "expected": "-",
                      "emit_kb": size / 1024.0})
    shutil.rmtree(emit_dir, ignore_errors=True)
    info = {"tasks": len(rows), "failed": failed, "with_dm": with_dm,
            "emit_s": time.monotonic() - start}
    return probs, info


# ---------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------

def solve_one(args, prob):
    t = args.timeout
    runs = {
        "tessera": run_child([args.tessera, "solve", "--timeout", str(t), prob["file"]], t + GRACE_S),
        "z3": run_child([args.z3, f"-T:{t}", prob["file"]], t + GRACE_S),
    }
    row = dict(prob)
    for side, run in runs.items():
        ans, note = answer_of(run)
        row[side] = ans
        row[side + "_note"] = note
        row[side + "_wall"] = run.wall
        row[side + "_cpu"] = run.cpu
        row[side + "_mb"] = run.peak_mb
        row[side + "_wrong"] = ans in ("sat", "unsat") and row["expected"] in ("sat", "unsat") \
            and ans != row["expected"]
        row[side + "_solved"] = ans in ("sat", "unsat") and not row[side + "_wrong"]
    row["disagree"] = row["tessera"] in ("sat", "unsat") and row["z3"] in ("sat", "unsat") \
        and row["tessera"] != row["z3"]
    return row


def solve_all(args, probs, label):
    rows = [None] * len(probs)
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(solve_one, args, p): k for k, p in enumerate(probs)}
        for fut in concurrent.futures.as_completed(futures):
            k = futures[fut]
            r = rows[k] = fut.result()
            done += 1
            flag = ""
            if r["tessera_wrong"] or r["z3_wrong"]:
                flag = "  WRONG"
            elif r["disagree"]:
                flag = "  DISAGREE"
            log(f"{label} {done}/{len(probs)} {r['name'][:60]:60s} exp {r['expected']:5s} "
                f"tessera {r['tessera']:7s} {r['tessera_wall']:6.2f}s {r['tessera_mb']:7.1f}MB | "
                f"z3 {r['z3']:7s} {r['z3_wall']:6.2f}s {r['z3_mb']:7.1f}MB{flag}")
    return rows


# ---------------------------------------------------------------------------
# Summary and report
# ---------------------------------------------------------------------------

def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


def ratio(a, b):
    """a / b, with times floored at 1 ms so a zero does not divide."""
    return max(a, 0.001) / max(b, 0.001)


def fmt(x, spec=".2f"):
    return "-" if x is None else format(x, spec)


def summarize(rows):
    both = [r for r in rows if r["tessera_solved"] and r["z3_solved"]]
    s = {
        "problems": len(rows),
        "t_solved": sum(r["tessera_solved"] for r in rows),
        "z_solved": sum(r["z3_solved"] for r in rows),
        "t_sat": sum(r["tessera_solved"] and r["tessera"] == "sat" for r in rows),
        "t_unsat": sum(r["tessera_solved"] and r["tessera"] == "unsat" for r in rows),
        "z_sat": sum(r["z3_solved"] and r["z3"] == "sat" for r in rows),
        "z_unsat": sum(r["z3_solved"] and r["z3"] == "unsat" for r in rows),
        "both": len(both),
        "t_only": sum(r["tessera_solved"] and not r["z3_solved"] for r in rows),
        "z_only": sum(r["z3_solved"] and not r["tessera_solved"] for r in rows),
        "t_wrong": [r["name"] for r in rows if r["tessera_wrong"]],
        "z_wrong": [r["name"] for r in rows if r["z3_wrong"]],
        "disagree": [r["name"] for r in rows if r["disagree"]],
        "t_max_mb_all": max((r["tessera_mb"] for r in rows), default=None),
        "z_max_mb_all": max((r["z3_mb"] for r in rows), default=None),
    }
    if both:
        s["t_wall"] = sum(r["tessera_wall"] for r in both)
        s["z_wall"] = sum(r["z3_wall"] for r in both)
        s["wall_ratio"] = ratio(s["t_wall"], s["z_wall"])
        s["wall_ratio_median"] = median([ratio(r["tessera_wall"], r["z3_wall"]) for r in both])
        s["t_cpu"] = sum(r["tessera_cpu"] for r in both)
        s["z_cpu"] = sum(r["z3_cpu"] for r in both)
        s["cpu_ratio"] = ratio(s["t_cpu"], s["z_cpu"])
        mem = [(r["tessera_mb"] / max(r["z3_mb"], 0.001), r) for r in both]
        s["mem_ratio_median"] = median([m for m, _ in mem])
        top = max(mem, key=lambda m: m[0])
        s["mem_ratio_max"], s["mem_ratio_max_file"] = top[0], top[1]["name"]
        s["mem_ratio_max_mb"] = (top[1]["tessera_mb"], top[1]["z3_mb"])
        s["t_max_mb"] = max(r["tessera_mb"] for r in both)
        s["z_max_mb"] = max(r["z3_mb"] for r in both)
    return s


def summary_lines(title, s):
    """The summary of one set as Markdown table rows (also printed to stdout)."""
    def names(xs):
        return f"{len(xs)}" + (f" ({', '.join(xs[:5])}{', ...' if len(xs) > 5 else ''})" if xs else "")
    w = [f"### {title}", "",
         "| | tessera | z3 |", "|---|---|---|",
         f"| problems | {s['problems']} | {s['problems']} |",
         f"| solved (sat / unsat) | {s['t_solved']} ({s['t_sat']} / {s['t_unsat']}) "
         f"| {s['z_solved']} ({s['z_sat']} / {s['z_unsat']}) |",
         f"| solved by this side only | {s['t_only']} | {s['z_only']} |",
         f"| solved by both | {s['both']} | {s['both']} |",
         f"| WRONG answers | {names(s['t_wrong'])} | {names(s['z_wrong'])} |"]
    if s["disagree"]:
        w.append(f"| answers contradicting each other | {names(s['disagree'])} | |")
    if s["both"]:
        w += [f"| wall time on both-solved, total s | {s['t_wall']:.2f} | {s['z_wall']:.2f} |",
              f"| ... ratio tessera/z3 of the totals | {s['wall_ratio']:.2f} | |",
              f"| ... median per-problem ratio tessera/z3 | {s['wall_ratio_median']:.2f} | |",
              f"| CPU time on both-solved, total s | {s['t_cpu']:.2f} | {s['z_cpu']:.2f} |",
              f"| ... ratio tessera/z3 of the totals | {s['cpu_ratio']:.2f} | |",
              f"| peak memory on both-solved: median per-problem ratio tessera/z3 "
              f"| {s['mem_ratio_median']:.2f} | |",
              f"| ... largest per-problem ratio | {s['mem_ratio_max']:.2f} "
              f"(`{s['mem_ratio_max_file']}`: {s['mem_ratio_max_mb'][0]:.1f} MB vs "
              f"{s['mem_ratio_max_mb'][1]:.1f} MB) | |",
              f"| ... largest peak MB on both-solved | {s['t_max_mb']:.1f} | {s['z_max_mb']:.1f} |"]
    w.append(f"| largest peak MB on any problem | {fmt(s['t_max_mb_all'], '.1f')} "
             f"| {fmt(s['z_max_mb_all'], '.1f')} |")
    w.append("")
    return w


def problem_table(rows, with_emit):
    head = "| file | expected | tessera | wall s | CPU s | peak MB | z3 | wall s | CPU s | peak MB " \
           "| wall ratio | mem ratio |"
    sep = "|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
    if with_emit:
        head = "| file | emit KB " + head[len("| file "):]
        sep = "|---|---:" + sep[len("|---"):]
    w = [head, sep]

    def ans(r, side):
        a = r[side]
        if r[side + "_wrong"]:
            a = f"**{a} WRONG**"
        elif r["disagree"]:
            a = f"**{a}** (disagree)"
        if r[side + "_note"]:
            a += f" ({r[side + '_note'].replace('|', '/')})"
        return a

    for r in rows:
        cells = [f"`{r['name']}`"]
        if with_emit:
            cells.append(f"{r.get('emit_kb', 0):.0f}")
        cells += [r["expected"],
                  ans(r, "tessera"), f"{r['tessera_wall']:.2f}", f"{r['tessera_cpu']:.2f}",
                  f"{r['tessera_mb']:.1f}",
                  ans(r, "z3"), f"{r['z3_wall']:.2f}", f"{r['z3_cpu']:.2f}", f"{r['z3_mb']:.1f}",
                  f"{ratio(r['tessera_wall'], r['z3_wall']):.2f}",
                  f"{r['tessera_mb'] / max(r['z3_mb'], 0.001):.2f}"]
        w.append("| " + " | ".join(cells) + " |")
    w.append("")
    return w


def version(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        return (p.stdout.strip() or p.stderr.strip()).splitlines()[0]
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return "?"


def markdown(args, sets, started, elapsed, loads, command):
    w = ["# `tessera solve` against z3 on Horn clause files", ""]
    w.append(f"Generated by `benchmarks/solve_vs_z3.py` on {started:%Y-%m-%d %H:%M} UTC "
             f"({elapsed / 60:.1f} min).")
    w.append("")
    w.append(f"- Machine: {machine()}.")
    w.append(f"- Load average (1/5/15 min) at the start {loads[0]}, at the end {loads[1]}: the "
             "machine may be shared, so wall times carry other jobs' load; CPU time (user + system "
             "of the child, all its threads) is less sensitive to it.")
    w.append(f"- Command: `{command}`")
    w.append(f"- tessera: `{os.path.abspath(args.tessera)}` ({version([args.tessera, '--version'])}), "
             f"run as `tessera solve --timeout {args.timeout} FILE`.")
    z3_path = shutil.which(args.z3) or args.z3
    w.append(f"- z3: `{z3_path}` ({version([args.z3, '--version'])}), run as `z3 -T:{args.timeout} FILE`.")
    w.append(f"- {args.jobs} problem(s) at a time; tessera and z3 of one problem run one after the "
             f"other. Each child runs in its own process group, killed after {args.timeout + GRACE_S} s. "
             "Wall time is that of the child; CPU time and peak memory (`ru_maxrss`) come from "
             "`wait4`'s rusage of the child.")
    w.append("- An answer is the first line of standard output; anything but sat/unsat counts as "
             "unknown. WRONG: an answer contradicting the expected one. Solved: answered sat/unsat "
             "and not wrong. Ratios are tessera/z3 (below 1: tessera faster or smaller); times are "
             "floored at 1 ms in ratios.")
    w.append("")
    for key, title, rows, info in sets:
        if key == "chc":
            w.append(f"## chc: {args.chc}")
            w.append("")
            w.append(f"All problems of `{os.path.join(args.chc, 'verdicts.tsv')}`"
                     + (f" (the first {args.limit})" if args.limit is not None else "") + ".")
        else:
            w.append(f"## other-largest: the {args.largest} largest Horn clause files of {args.other}")
            w.append("")
            w.append(f"`tessera emit FILE"
                     + (" --data-model ilp32|lp64` (the task's data model)" if info["with_dm"] else "`")
                     + f" on {info['tasks']} task(s) of `{os.path.join(args.other, 'verdicts.tsv')}`"
                     + (f" (only the first {args.emit_limit}, --emit-limit)" if args.emit_limit is not None else "")
                     + f", {EMIT_LIMIT_S} s limit each, {info['emit_s']:.0f} s in all; "
                     f"{len(info['failed'])} emit(s) failed or ran out of time"
                     + (": " + ", ".join(f"`{t}` ({why})" for t, why in info["failed"][:10])
                        + (", ..." if len(info["failed"]) > 10 else "") if info["failed"] else "")
                     + f". The {len(rows)} largest outputs"
                     + (f" (the first {args.limit} of the {args.largest} largest)" if args.limit is not None else "")
                     + f" are the problems (kept in `{args.work}`"
                     + (", removed after the run" if args.work_is_temp else "")
                     + "); no expected answer.")
        w.append("")
        w += summary_lines("Summary", summarize(rows))
        w.append("### Per problem")
        w.append("")
        w += problem_table(rows, key == "other")
    return "\n".join(w)


# ---------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tessera", required=True, help="the tessera binary (run as PATH solve --timeout T FILE)")
    ap.add_argument("--z3", default="z3", help="the z3 binary (run as PATH -T:T FILE; default: z3)")
    ap.add_argument("--timeout", type=int, default=20,
                    help=f"seconds per solver run (default 20); hard limit T+{GRACE_S}")
    ap.add_argument("--chc", default=os.path.normpath(os.path.join(REPO, "..", "shared", "bench", "chc")),
                    help="CHC problem folder with verdicts.tsv (default ../shared/bench/chc beside the repo)")
    ap.add_argument("--other", default=os.path.normpath(os.path.join(REPO, "..", "shared", "bench", "other")),
                    help="C task folder with verdicts.tsv (default ../shared/bench/other beside the repo)")
    ap.add_argument("--largest", type=int, default=20,
                    help="how many of the largest emitted Horn files of --other to use (default 20)")
    ap.add_argument("--work", default=None,
                    help="folder for the emitted .smt2 files (default: a temporary folder, removed at the end)")
    ap.add_argument("--emit-jobs", type=int, default=2, help="emits run in parallel (default 2)")
    ap.add_argument("--emit-limit", type=int, default=None, metavar="M",
                    help="emit only the first M tasks of --other's verdicts.tsv (for quick trials)")
    ap.add_argument("--only", choices=("chc", "other", "both"), default="both",
                    help="which problem set(s) to run (default both)")
    ap.add_argument("--limit", type=int, default=None, metavar="K",
                    help="run only the first K problems of each set (for quick trials)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="problems run concurrently (default 1); the two solvers of one problem never overlap")
    ap.add_argument("--out", default=os.path.join(REPO, "benchmarks", "results", "solve_vs_z3.md"),
                    help="Markdown report (default benchmarks/results/solve_vs_z3.md)")
    ap.add_argument("--csv", default=None, help="also write the raw per-problem rows to this CSV file")
    args = ap.parse_args()

    if not os.access(args.tessera, os.X_OK):
        raise SystemExit(f"not an executable: {args.tessera}")
    if shutil.which(args.z3) is None:
        raise SystemExit(f"z3 binary not found: {args.z3}")
    args.work_is_temp = args.work is None
    if args.work_is_temp:
        args.work = tempfile.mkdtemp(prefix="solve_vs_z3.")
    else:
        os.makedirs(args.work, exist_ok=True)

    command = shlex.join([sys.executable, sys.argv[0]] + sys.argv[1:])
    started = datetime.datetime.now(datetime.timezone.utc)
    loads = [load_average(), None]
    t0 = time.monotonic()
    sets = []
    try:
        if args.only in ("chc", "both"):
            probs = chc_problems(args.chc)
            if args.limit is not None:
                probs = probs[:args.limit]
            log(f"chc: {len(probs)} problems, timeout {args.timeout}s, {args.jobs} at a time")
            sets.append(("chc", "chc", solve_all(args, probs, "chc"), None))
        if args.only in ("other", "both"):
            probs, info = other_problems(args.tessera, args.other, args.largest, args.work,
                                         args.emit_jobs, args.emit_limit)
            if args.limit is not None:
                probs = probs[:args.limit]
            log(f"other: {len(probs)} problems, timeout {args.timeout}s, {args.jobs} at a time")
            sets.append(("other", "other-largest", solve_all(args, probs, "other"), info))
        loads[1] = load_average()
        elapsed = time.monotonic() - t0

        report = markdown(args, sets, started, elapsed, loads, command)
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w") as f:
            f.write(report + "\n")

        if args.csv:
            os.makedirs(os.path.dirname(os.path.abspath(args.csv)) or ".", exist_ok=True)
            fields = ["set", "name", "file", "expected", "emit_kb"]
            for side in ("tessera", "z3"):
                fields += [side, side + "_note", side + "_wall", side + "_cpu", side + "_mb",
                           side + "_solved", side + "_wrong"]
            fields.append("disagree")
            with open(args.csv, "w", newline="") as f:
                wr = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
                wr.writeheader()
                for _, _, rows, _ in sets:
                    for r in rows:
                        wr.writerow({k: (f"{v:.3f}" if isinstance(v, float) else v) for k, v in r.items()})

        print(f"load average at start {loads[0]}, at end {loads[1]}; {elapsed / 60:.1f} min")
        for _, title, rows, _ in sets:
            print("\n".join(summary_lines(title, summarize(rows))))
        print(f"report: {args.out}" + (f", rows: {args.csv}" if args.csv else ""))
    finally:
        if args.work_is_temp:
            shutil.rmtree(args.work, ignore_errors=True)


if __name__ == "__main__":
    main()
