#!/usr/bin/env bash
# Times `prove --ints math` on the paper's 3pieces program and on the ten
# slowest correctly solved programs of a benchmark run, NEW binary against
# OLD, RUNS times each in turn (OLD NEW OLD NEW ...), and prints per program
# the median wall time of each and the ratio NEW/OLD of the medians.
#
#   benchmarks/speed.sh OLD_BINARY NEW_BINARY [RESULTS_CSV] [RUNS]
#
# RESULTS_CSV: results.csv of a `tessera bench ../shared/bench/c/verdicts.tsv
# --ints math --int-only` run (its folder's paths are relative to
# ../shared/bench/c); without it only 3pieces is timed. RUNS defaults to 3.
set -euo pipefail
old=$1; new=$2; results=${3:-}; runs=${4:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
programs=("$root/benchmarks/programs/3pieces.c")
if [ -n "$results" ]; then
  while IFS= read -r p; do programs+=("$root/../shared/bench/c/$p"); done < <(
    python3 - "$results" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "correct"]
rows.sort(key=lambda r: float(r["wall_seconds"]), reverse=True)
for r in rows[:10]:
    print(r["path"])
PY
  )
fi
run() { # binary program -> wall seconds
  python3 -c 'import subprocess, sys, time
t = time.monotonic()
subprocess.run([sys.argv[1], "prove", "--ints", "math", "--timeout", "60", sys.argv[2]], capture_output=True)
print(time.monotonic() - t)' "$1" "$2"
}
printf "%-60s %10s %10s %8s\n" program "old (s)" "new (s)" new/old
for p in "${programs[@]}"; do
  o=(); n=()
  for _ in $(seq "$runs"); do o+=("$(run "$old" "$p")"); n+=("$(run "$new" "$p")"); done
  python3 - "$p" "${o[*]}" "${n[*]}" <<'PY'
import statistics, sys, os
o = statistics.median(map(float, sys.argv[2].split()))
n = statistics.median(map(float, sys.argv[3].split()))
print(f"{os.path.basename(sys.argv[1])[:60]:<60} {o:10.2f} {n:10.2f} {n / o:8.2f}")
PY
done
