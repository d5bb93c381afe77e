#!/bin/sh
# Runs the engine's fuzz targets (core/fuzz) one after another, each for the
# given time, and prints one line of figures per target.
#
#   tools/fuzz.sh [SECONDS] [TARGET...]     default: 600 s each, every target
#
# Targets: decode, encode, label, detect, segments, repair. Each starts from the seeds
# in core/fuzz/seeds/TARGET and grows its corpus in core/fuzz/corpus/TARGET
# (not committed); a finding is written to core/fuzz/artifacts/TARGET and
# stops that target. Needs cargo-fuzz (`cargo install cargo-fuzz`) and a
# nightly compiler, or RUSTC_BOOTSTRAP=1 on a stable one, which this sets.
# Logs go to core/fuzz/logs/TARGET.log.
set -eu
cd "$(dirname "$0")/../core"
seconds=${1:-600}
[ $# -gt 0 ] && shift
targets=${*:-decode encode label detect segments repair}
export RUSTC_BOOTSTRAP=1
cargo fuzz build -O
mkdir -p fuzz/logs
status=0
for target in $targets; do
    mkdir -p "fuzz/corpus/$target"
    log="fuzz/logs/$target.log"
    # -timeout: an input that takes longer than 10 s is a finding (the
    # "bounded time" of detection and repair); -rss_limit_mb bounds memory.
    if cargo fuzz run -O "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 >"$log" 2>&1; then
        verdict=ok
    else
        verdict="FINDING (see $log)"
        status=1
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    corpus=$(find "fuzz/corpus/$target" -type f | wc -l)
    echo "$target: ${seconds} s, ${runs:-?} runs (${rate:-?}/s), coverage ${cov:-?} edges, corpus $corpus inputs: $verdict"
done
exit $status
