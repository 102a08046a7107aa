#!/usr/bin/env python3
"""Witness campaign: write a witness for every correct YES and NO of a
`tessera bench` run and check it.

    scripts/witness-campaign.py RESULTS.csv INDEX.tsv OUT_DIR [--tessera BIN]
                                [--linter DIR/lint/witnesslinter.py] [--jobs 2]
                                [--ints c|math]

For each task that the bench answered correctly, `tessera prove` runs again
with the task's data model and `--witness`:

* NO: a GraphML witness, passed to SV-COMP's witness linter (exit code 0
  means neither error nor warning), and a YAML `violation_sequence`
  (format 2.2) checked for the published structure;
* YES: a YAML `invariant_set` (format 2.1) checked for the published
  structure and for C expressions (no S-expressions, no temporaries).

A witness that is not written (the prover declines, with a note on stderr)
is counted apart from one that is written and fails. Prints one line per
task that did not pass and a summary; exit code 0 iff nothing failed.
Needs PyYAML (and lxml for the linter).
"""

import argparse
import concurrent.futures
import csv
import os
import subprocess
import sys

import yaml


def check_metadata(entry, version):
    meta = entry["metadata"]
    assert meta["format_version"] == version, meta["format_version"]
    for key in ("uuid", "creation_time"):
        assert meta.get(key), key
    task = meta["task"]
    assert task["specification"] == "CHECK( init(main()), LTL(F end) )", task["specification"]
    assert task["data_model"] in ("ILP32", "LP64"), task["data_model"]
    assert task["language"] == "C"
    assert task["input_files"] and len(task["input_file_hashes"][task["input_files"][0]]) == 64


def is_c_expression(text):
    """No SMT-LIB S-expression and no internal name (`tmp%1`, `r#0`)."""
    return not text.lstrip().startswith("(and") and " (>= " not in text and "#" not in text \
        and "%" not in text.replace(" % ", "")


def check_correctness_yaml(path):
    doc = yaml.safe_load(open(path))
    assert isinstance(doc, list) and doc, "a list of entries"
    entry = doc[0]
    assert entry["entry_type"] == "invariant_set", entry["entry_type"]
    check_metadata(entry, "2.1")
    for item in entry["content"]:
        inv = item["invariant"]
        assert inv["type"] in ("loop_invariant", "loop_transition_invariant", "location_invariant"), inv["type"]
        for key in ("file_name", "line", "column", "function"):
            assert key in inv["location"], key
        assert inv["format"] in ("c_expression", "ext_c_expression"), inv["format"]
        assert is_c_expression(inv["value"]), inv["value"]


def check_violation_yaml(path):
    doc = yaml.safe_load(open(path))
    entry = doc[0]
    assert entry["entry_type"] == "violation_sequence", entry["entry_type"]
    check_metadata(entry, "2.2")
    segments = entry["content"]
    assert segments, "segments"
    for segment in segments:
        for w in segment["segment"]:
            wp = w["waypoint"]
            assert wp["action"] in ("follow", "avoid", "cycle"), wp["action"]
            assert wp["location"]["line"] > 0
    cycle = segments[-1]["segment"][0]["waypoint"]
    assert cycle["type"] == "recurrence" and cycle["action"] == "cycle", cycle
    assert cycle["constraint"]["format"] == "c_expression"
    assert is_c_expression(cycle["constraint"]["value"]), cycle["constraint"]["value"]


def run_task(args, task):
    path, answer, model = task
    program = os.path.join(args.index_dir, path)
    stem = path.replace("/", "__")
    out = []
    kinds = [".yml"] if answer == "YES" else [".graphml", ".yml"]
    for ext in kinds:
        witness = os.path.join(args.out, stem + ext)
        if os.path.exists(witness):
            os.remove(witness)
        cmd = [args.tessera, "prove", "--timeout", "30", "--data-model", model.lower(), "--ints", args.ints,
               "--witness", witness, program]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            out.append((ext, "not-run", "timeout"))
            continue
        got = p.stdout.split(": ", 1)[1].split()[0] if ": " in p.stdout else "?"
        if got != answer:
            out.append((ext, "not-run", f"answered {got} this time"))
            continue
        if not os.path.exists(witness):
            note = [l for l in p.stderr.splitlines() if "witness" in l]
            out.append((ext, "declined", note[0] if note else "no witness written"))
            continue
        try:
            if ext == ".graphml":
                lint = subprocess.run([args.python, args.linter, "--witness", witness, program],
                                      capture_output=True, text=True, timeout=120)
                if lint.returncode != 0:
                    raise AssertionError("linter: " + " | ".join(lint.stdout.strip().splitlines()[-3:]))
            elif answer == "YES":
                check_correctness_yaml(witness)
            else:
                check_violation_yaml(witness)
            out.append((ext, "pass", ""))
        except Exception as e:  # noqa: BLE001 - any failure is reported
            out.append((ext, "fail", f"{type(e).__name__}: {e}"))
    return path, answer, out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("index")
    ap.add_argument("out")
    ap.add_argument("--tessera", default="target/release/tessera")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--linter", default=os.path.join(here, "../../shared/formats/sv-witnesses/lint/witnesslinter.py"))
    venv = os.path.join(here, "../target/witnesslint-venv/bin/python")
    ap.add_argument("--python", default=venv if os.path.exists(venv) else sys.executable)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ints", choices=["c", "math"], default="c", help="integer semantics of the bench run")
    args = ap.parse_args()
    args.index_dir = os.path.dirname(os.path.abspath(args.index))
    os.makedirs(args.out, exist_ok=True)
    models = {}
    with open(args.index) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            models[row["relative_path"]] = row.get("data_model") or "LP64"
    tasks = []
    with open(args.results) as f:
        for row in csv.DictReader(f):
            if row["status"] == "correct" and row["answer"] in ("YES", "NO"):
                tasks.append((row["path"], row["answer"], models.get(row["path"], "LP64")))
    counts = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for path, answer, results in pool.map(lambda t: run_task(args, t), tasks):
            for ext, status, detail in results:
                key = (answer, ext, status)
                counts[key] = counts.get(key, 0) + 1
                if status != "pass":
                    print(f"{status:9} {answer:3} {ext:8} {path}: {detail}", flush=True)
    print(f"\n{len(tasks)} correct YES/NO answers")
    for (answer, ext, status), n in sorted(counts.items()):
        print(f"  {answer:3} {ext:8} {status:9} {n}")
    sys.exit(1 if any(k[2] == "fail" for k in counts) else 0)


if __name__ == "__main__":
    main()
