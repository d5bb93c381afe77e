#!/bin/sh
# Wall-clock time of the command line against the same commands on
# encoding_rs (core/examples/encoding_rs_cli.rs), on the engine benchmark's
# real inputs repeated to about 100 MB, so that decoding and not the
# start-up is what is timed:
#
#   tools/bench-command-time.sh [ENCODING...]
#
# For each encoding: `decode` of the real text, of the real text with 1%
# of its bytes in errors, and `encode` of the text where the encoding has an
# encoder of its own. Each line gives the median seconds of ours and of
# encoding_rs and their ratio (encoding_rs / ours: above 1 when ours is
# faster). Needs hyperfine and the development set in
# ../shared/data/detect-dev; the machine should be otherwise idle.
set -eu
cd "$(dirname "$0")/.."
runs=${RUNS:-7}
cargo build --release -q -p mojiscope
cargo build --release -q -p mojiscope-core --example encoding_rs_cli
target=$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
ours="$target/release/mojiscope"
peer="$target/release/examples/encoding_rs_cli"
bench=$(cargo bench -p mojiscope-core --bench engine --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*\)".*/\1/p' | tail -n 1)
inputs="$target/bench-inputs"
"$bench" --write-inputs "$inputs" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$#" -eq 0 ]; then
    set -- $(cd "$inputs" && ls -- *.real | sed 's/\.real$//')
fi
echo "| encoding | input | command | ours (s) | encoding_rs (s) | ratio |"
echo "|---|---|---|---:|---:|---:|"
for name in "$@"; do
    for input in real real-invalid txt; do
        [ -f "$inputs/$name.$input" ] || continue
        case $input in
            txt)
                case $name in UTF-16*|UTF-8) continue ;; esac
                command=encode kind=real ;;
            real) command=decode kind=real ;;
            real-invalid) command=decode kind="real, 1% invalid" ;;
        esac
        big="$work/input"
        : >"$big"
        for _ in $(seq 50); do cat "$inputs/$name.$input" >>"$big"; done
        hyperfine -N --warmup 1 --runs "$runs" --export-json "$work/times.json" \
            "$ours $command --encoding $name $big" \
            "$peer $command --encoding $name $big" >/dev/null
        # The medians, in the order the commands were given.
        sed -n 's/.*"median": *\([0-9.e-]*\).*/\1/p' "$work/times.json" | tr '\n' ' ' |
            awk -v name="$name" -v kind="$kind" -v command="$command" '{
                printf "| %s | %s | %s | %.3f | %.3f | %.2f |\n", name, kind, command, $1, $2, $2 / $1
            }'
    done
done
