#!/usr/bin/env bash
# Side-by-side run of a Tessera engine and the z3 binary (Spacer) on the
# CHC-COMP problems listed in a verdicts.tsv, N problems at a time.
#
#   benchmarks/chc_vs_z3.sh [ENGINE] [TIMEOUT] [JOBS] [BENCH_DIR]
#   defaults: pdr 20 2 ../shared/bench/chc (beside the repository)
#
# Prints one line per problem (file, expected, ours, our time, evidence
# check, z3, z3 time) into $OUT (default /tmp/chc_vs_z3.<engine>.tsv) and a
# summary: solved, wrong answers, answers whose evidence failed validation,
# and the ratio of total times on problems both solved.
set -euo pipefail
ENGINE=${1:-pdr}
TIMEOUT=${2:-20}
JOBS=${3:-2}
BENCH=${4:-"$(cd "$(dirname "$0")/.." && pwd)/../shared/bench/chc"}
OUT=${OUT:-/tmp/chc_vs_z3.$ENGINE.tsv}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

cargo build --release --quiet --example chc_solve --manifest-path "$ROOT/Cargo.toml"
# Run a private copy, so rebuilding during a long run changes nothing.
SOLVE="$(mktemp -d)/chc_solve"
cp "$ROOT/target/release/examples/chc_solve" "$SOLVE"
command -v z3 >/dev/null || { echo "z3 binary not found (apt-get install -y z3)" >&2; exit 1; }

run_one() {
    local rel=$1 expected=$2
    local file="$BENCH/$rel"
    local ours ours_t check z3ans z3_t start end
    # A hard outer limit in case an engine ignores its budget.
    read -r ours ours_t check _ < <(timeout $((TIMEOUT + 30)) "$SOLVE" "$ENGINE" "$TIMEOUT" "$file" 2>/dev/null || echo "crash $TIMEOUT -")
    start=$(date +%s.%N)
    z3ans=$(timeout $((TIMEOUT + 5)) z3 -T:"$TIMEOUT" "$file" 2>/dev/null | head -1 || true)
    end=$(date +%s.%N)
    z3_t=$(echo "$end - $start" | bc)
    case "$z3ans" in sat|unsat) ;; *) z3ans=unknown ;; esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%.3f\n' "$rel" "$expected" "$ours" "$ours_t" "$check" "$z3ans" "$z3_t"
}
export -f run_one
export BENCH TIMEOUT ENGINE SOLVE

tail -n +2 "$BENCH/verdicts.tsv" | cut -f1,2 | tr '\t' ' ' \
    | xargs -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1"' > "$OUT"

awk -F'\t' -v engine="$ENGINE" '
{
    n++
    ours_ok = ($3 == "sat" || $3 == "unsat")
    z3_ok = ($6 == "sat" || $6 == "unsat")
    if (ours_ok) { if ($3 == $2) solved++; else wrong++ ; if ($5 != "valid") invalid++ }
    if (z3_ok) { if ($6 == $2) zsolved++; else zwrong++ }
    if (ours_ok && $3 == $2) { if ($2 == "sat") osat++; else ounsat++ }
    if (ours_ok && z3_ok && $3 == $2 && $6 == $2) { both++; tours += $4; tz3 += $7 }
}
END {
    printf "problems: %d\n", n
    printf "%s: solved %d (sat %d, unsat %d), wrong %d, evidence not valid %d\n", engine, solved, osat, ounsat, wrong, invalid
    printf "z3: solved %d, wrong %d\n", zsolved, zwrong
    if (both > 0) printf "both solved %d: total time %s %.1fs, z3 %.1fs, ratio %.2f\n", both, engine, tours, tz3, tours / tz3
}' "$OUT"
