#!/usr/bin/env python3
"""Issue 60's measure of termination preconditions: on the non-terminating
tasks of a verdict index that Tessera answers NO, the share that also get a
proved precondition, and how many of those are proved the weakest.

    python3 benchmarks/preconditions.py [--index ../shared/bench/c/verdicts.tsv]
        [--int-only] [--ints math] [--tessera target/release/tessera]
        [--timeout 30] [--jobs 2] [--out benchmarks/results/preconditions.md]

Every precondition printed is proved by Tessera itself (ranking functions
on the model with the condition assumed, certificate-checked); this script
only counts. For a folder of programs with known weakest preconditions
checked by compiled runs, see tests/c/conditional/check.py.
"""
import argparse, csv, datetime, json, os, subprocess, sys
from concurrent.futures import ThreadPoolExecutor


def read_tsv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", default="../shared/bench/c/verdicts.tsv")
    ap.add_argument("--int-only", action="store_true", help="only tasks whose details.tsv says int_only")
    ap.add_argument("--ints", default=None)
    ap.add_argument("--tessera", default="target/release/tessera")
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    root = os.path.dirname(os.path.abspath(a.index))
    rows = [r for r in read_tsv(a.index) if r["expected"] == "nonterminating"]
    if a.int_only:
        details = {r["relative_path"]: r for r in read_tsv(os.path.join(root, "details.tsv"))}
        rows = [r for r in rows if details.get(r["relative_path"], {}).get("int_only") == "1"]

    def run(row):
        path = os.path.join(root, row["relative_path"])
        yml = os.path.splitext(path)[0] + ".yml"
        target = yml if os.path.exists(yml) else path
        cmd = [a.tessera, "prove", target, "--format", "json", "--timeout", str(a.timeout)]
        if a.ints:
            cmd += ["--ints", a.ints]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=a.timeout + 30).stdout
            j = json.loads(out)
        except Exception as e:  # a crash or a time-out counts as no answer
            return row["relative_path"], {"answer": "ERROR", "error": str(e)}
        return row["relative_path"], j

    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(run, rows))
    no = [(p, j) for p, j in results if j.get("answer") == "NO"]
    # `0`: no entry state ends (proved the weakest); not a satisfiable one.
    never = [(p, j) for p, j in no if j.get("precondition") == "0"]
    with_pre = [(p, j) for p, j in no if j.get("precondition") and j.get("precondition") != "0"]
    weakest = [(p, j) for p, j in with_pre if j.get("precondition_details", {}).get("weakest")]
    how = lambda j: j.get("precondition_details", {}).get("how", "learned from sampled runs")
    skipped = [(p, j) for p, j in with_pre if how(j) == "the loop not entered"]
    skipped_weakest = [(p, j) for p, j in skipped if j.get("precondition_details", {}).get("weakest")]
    on_reads = [(p, j) for p, j in with_pre if how(j) == "the values read with which the loop is left"]
    learned = [(p, j) for p, j in with_pre if how(j) == "learned from sampled runs"]
    lines = [
        f"### Termination preconditions: {a.index} ({datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC)",
        "",
        f"Command: `python3 benchmarks/preconditions.py --index {a.index}{' --int-only' if a.int_only else ''}"
        f"{' --ints ' + a.ints if a.ints else ''} --timeout {a.timeout} --jobs {a.jobs}`",
        "",
        f"- non-terminating tasks: {len(rows)}; answered NO: {len(no)}",
        f"- NO with a proved precondition: {len(with_pre)} ({100.0 * len(with_pre) / max(1, len(no)):.0f} %)",
        f"- of those proved the weakest: {len(weakest)}",
        f"- of those only the loop not entered (the last resort): {len(skipped)}, "
        f"{len(skipped_weakest)} of them the weakest; on every value read inside the loop (those with which it is left): "
        f"{len(on_reads)}; learned from runs: {len(learned)}",
        f"- NO where no entry of the loop ends, proved (precondition `0`, the weakest): {len(never)}",
        "",
        "| task | precondition | weakest | how |",
        "| --- | --- | --- | --- |",
    ]
    for p, j in with_pre:
        lines.append(f"| `{p}` | `{j['precondition']}` | {'yes' if j.get('precondition_details', {}).get('weakest') else 'no'} | {how(j)} |")
    lines += ["", "NO without a precondition: " + ", ".join(f"`{os.path.basename(p)}`" for p, j in no if not j.get("precondition") or j.get("precondition") == "0")]
    text = "\n".join(lines) + "\n"
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
