#!/usr/bin/env python3
"""What the answers of a `tessera bench` run rest on (issue 56): reads the
JSON each task printed (OUT/logs/tessera/**.stdout, kept by `tessera bench
--out OUT`) and counts, per answer, its `rests_on`: `model` (ranking
functions or a recurrent set, certificate-checked), `interpreter`
(executing every run, or a run that repeats its state; replayed) or
`interpreter and model` (an execution answer the model confirmed).

    benchmarks/rests_on.py OUT [TITLE]   prints a Markdown table
"""
import collections
import json
import pathlib
import sys


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = pathlib.Path(sys.argv[1])
    title = sys.argv[2] if len(sys.argv) > 2 else str(out)
    counts = collections.Counter()
    for f in sorted((out / "logs" / "tessera").rglob("*.stdout")):
        try:
            j = json.loads(f.read_text())
        except (ValueError, OSError):
            counts[("unreadable", "-")] += 1
            continue
        counts[(j.get("answer", "?"), j.get("rests_on") or "-")] += 1
    print(f"### What the answers rest on: {title}\n")
    print("| answer | rests on | tasks |")
    print("| --- | --- | ---: |")
    for (answer, basis), n in sorted(counts.items()):
        print(f"| {answer} | {basis} | {n} |")
    for answer in ("YES", "NO"):
        executed = counts[(answer, "interpreter")] + counts[(answer, "interpreter and model")]
        if executed:
            share = 100.0 * counts[(answer, "interpreter and model")] / executed
            print(f"\n{answer} from execution: {executed}, confirmed on the model: "
                  f"{counts[(answer, 'interpreter and model')]} ({share:.0f} %)", end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
