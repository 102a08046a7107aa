#!/usr/bin/env bash
# Front-end speed: time `tessera emit` (parse, lower, slice, encode, print
# the Horn clauses) on every task of a verdict index, with each task's data
# model, and check the target: every file under LIMIT seconds of wall time.
#
#   benchmarks/emit_speed.sh ../shared/bench/other/verdicts.tsv [LIMIT] [TESSERA]
#
# Prints the slowest files (wall and CPU seconds, size of the clauses) and
# the median; exits 1 when a file is over the limit or emit fails on it.
# Times are those of one run on this machine: run it on a quiet machine, and
# compare two binaries with `farm-bench` rather than across runs.
set -u
index=${1:?usage: emit_speed.sh INDEX.tsv [LIMIT] [TESSERA]}
limit=${2:-1.0}
tessera=${3:-target/release/tessera}
dir=$(dirname "$index")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
: > "$out/times"
tail -n +2 "$index" | while IFS=$'\t' read -r path _expected _category model _rest; do
    [ -n "$path" ] || continue
    dm=$(echo "${model:-LP64}" | tr 'A-Z' 'a-z')
    [ "$dm" = ilp32 ] || dm=lp64
    case "$path" in /*) file=$path ;; *) file=$dir/$path ;; esac
    /usr/bin/time -o "$out/t" -f "%e %U %S" "$tessera" emit --data-model "$dm" "$file" -o "$out/clauses.smt2" 2> "$out/err"
    rc=$?
    read -r wall user sys < <(tail -1 "$out/t")
    bytes=$(stat -c %s "$out/clauses.smt2" 2>/dev/null || echo 0)
    echo "$wall $(awk -v u="$user" -v s="$sys" 'BEGIN{print u + s}') $bytes $rc $path" >> "$out/times"
    rm -f "$out/clauses.smt2"
done
n=$(wc -l < "$out/times")
echo "tessera emit on $n files of $index"
echo "slowest (wall s, cpu s, bytes of clauses, exit code, file):"
sort -n -r "$out/times" | head -10 | sed 's/^/  /'
median=$(sort -n "$out/times" | awk '{w[NR]=$1} END{print w[int((NR+1)/2)]}')
over=$(awk -v l="$limit" '$1 > l' "$out/times" | wc -l)
failed=$(awk '$4 != 0 && $4 != 4' "$out/times" | wc -l)
echo "median ${median} s; over ${limit} s: ${over}; failed (exit code other than 0 and 4, unsupported): ${failed}"
[ "$over" -eq 0 ] && [ "$failed" -eq 0 ]
