#!/bin/sh
# Instruction counts under callgrind: ours, the baseline (encoding_rs), and
# their ratio (baseline / ours, above 1 when ours runs fewer instructions).
# Unlike times, these do not move with the load of a shared machine.
#
#   tools/bench-callgrind.sh "windows-1252 | realistic | decode" [ROW...]
#   tools/bench-callgrind.sh --each FILTER [FILTER...]
#   tools/bench-callgrind.sh --command [ENCODING...]
#
# Rows of the engine benchmark: each argument selects rows as the
# benchmark's filters do; give one row per argument to get one line each.
# --each: one line for each row that one of the filters selects (as the
# benchmark's filters do; rows without an input are left out), e.g.
# `--each traced` for every row of the traced decode.
#
# --command: the command line, `mojiscope decode --encoding NAME FILE` and
# `mojiscope encode --encoding NAME FILE` against the same commands on
# encoding_rs (`core/examples/encoding_rs_cli.rs`), on the engine
# benchmark's real inputs (about 2 MB of real text per encoding, as it is
# and with 1% of its bytes in errors; they need the development set in
# ../shared/data/detect-dev). The start-up (the same command on an empty
# file) is subtracted from each count. With no ENCODING, every encoding
# that has real text. MOJISCOPE=PATH measures that binary instead of a
# release build of this tree (to compare two builds).
#
# Needs valgrind.
set -eu
cd "$(dirname "$0")/.."

engine_bench() {
    cargo bench -p mojiscope-core --bench engine --no-run --message-format=json 2>/dev/null |
        sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1
}

# Instructions of a whole command under callgrind (every thread).
instructions() {
    valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1 || true
    sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out" | head -n 1
}

if [ "${1:-}" = "--command" ]; then
    shift
    [ -n "${MOJISCOPE:-}" ] || cargo build --release -q -p mojiscope
    cargo build --release -q -p mojiscope-core --example encoding_rs_cli
    target=$(cargo metadata --format-version 1 --no-deps |
        sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
    ours="${MOJISCOPE:-$target/release/mojiscope}"
    peer="$target/release/examples/encoding_rs_cli"
    bench=$(engine_bench)
    [ -n "$bench" ] || { echo "bench-callgrind: cannot build the benchmark" >&2; exit 2; }
    inputs="$target/bench-inputs"
    "$bench" --write-inputs "$inputs" >/dev/null
    out=$(mktemp)
    empty=$(mktemp)
    trap 'rm -f "$out" "$empty"' EXIT
    if [ "$#" -eq 0 ]; then
        set -- $(cd "$inputs" && ls -- *.real | sed 's/\.real$//')
    fi
    # Start-up: each command on an empty file.
    ours_start=$(instructions "$ours" decode --encoding UTF-8 "$empty")
    peer_start=$(instructions "$peer" decode --encoding UTF-8 "$empty")
    ours_start_encode=$(instructions "$ours" encode --encoding UTF-8 "$empty")
    peer_start_encode=$(instructions "$peer" encode --encoding UTF-8 "$empty")
    echo "| encoding | input | command | ours | encoding_rs | ratio |"
    echo "|---|---|---|---:|---:|---:|"
    for name in "$@"; do
        for input in real real-invalid txt; do
            file="$inputs/$name.$input"
            [ -f "$file" ] || continue
            case $input in
                txt)
                    # Only encodings with an encoder of their own: the others
                    # write UTF-8.
                    case $name in UTF-16*|replacement|UTF-8) continue ;; esac
                    command=encode kind=real a0=$ours_start_encode b0=$peer_start_encode ;;
                real) command=decode kind=real a0=$ours_start b0=$peer_start ;;
                real-invalid) command=decode kind="real, 1% invalid" a0=$ours_start b0=$peer_start ;;
            esac
            a=$(instructions "$ours" "$command" --encoding "$name" "$file")
            b=$(instructions "$peer" "$command" --encoding "$name" "$file")
            awk -v name="$name" -v kind="$kind" -v command="$command" \
                -v a="$a" -v a0="$a0" -v b="$b" -v b0="$b0" 'BEGIN {
                printf "| %s | %s | %s | %d | %d | %.2f |\n", name, kind, command,
                    a - a0, b - b0, (b - b0) / (a - a0)
            }'
        done
    done
    exit 0
fi

bench=$(engine_bench)
[ -n "$bench" ] || { echo "bench-callgrind: cannot build the benchmark" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
each=false
if [ "${1:-}" = "--each" ]; then
    shift
    each=true
    rows=$(mktemp)
    trap 'rm -f "$out" "$rows"' EXIT
    "$bench" --list "$@" >"$rows"
    # One row per line: the labels have spaces.
    set --
    while IFS= read -r row; do set -- "$@" "$row"; done <"$rows"
fi
for row in "$@"; do
    valgrind --tool=callgrind --callgrind-out-file="$out" \
        --toggle-collect='*measure_ours*' --toggle-collect='*measure_baseline*' \
        "$bench" --callgrind "$row" >/dev/null 2>&1
    callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk -v row="$row" -v each="$each" '
        /engine::measure_ours \[/ { gsub(",", "", $1); ours = $1 }
        /engine::measure_baseline \[/ { gsub(",", "", $1); base = $1 }
        END {
            if (ours == "" || base == "") {
                if (each != "true") printf "| %s | no such row |\n", row
                exit
            }
            printf "| %s | %d | %d | %.2f |\n", row, ours, base, base / ours
        }'
done
