#!/bin/sh
# Instruction counts of the engine benchmark's rows under callgrind: ours,
# the baseline, and their ratio (baseline / ours, above 1 when ours runs
# fewer instructions). Unlike times, these do not move with the load of a
# shared machine.
#
#   tools/bench-callgrind.sh "windows-1252 | realistic | decode" [ROW...]
#
# Each argument selects rows as the benchmark's filters do; give one row per
# argument to get one line each. Needs valgrind.
set -eu
cd "$(dirname "$0")/.."
bench=$(cargo bench -p mojiscope-core --bench engine --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
[ -n "$bench" ] || { echo "bench-callgrind: cannot build the benchmark" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for row in "$@"; do
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        --toggle-collect='*measure_ours*' --toggle-collect='*measure_baseline*' \
        "$bench" --callgrind "$row" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk -v row="$row" '
        /engine::measure_ours \[/ { gsub(",", "", $1); ours = $1 }
        /engine::measure_baseline \[/ { gsub(",", "", $1); base = $1 }
        END {
            if (ours == "" || base == "") { printf "| %s | no such row |\n", row; exit }
            printf "| %s | %d | %d | %.2f |\n", row, ours, base, base / ours
        }'
done
