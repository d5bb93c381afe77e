#!/bin/sh
# Wall-clock time of `mojiscope detect FILE` against `uchardet FILE`, side
# by side on the same real files, in one run:
#
#   tools/bench-detect-time.sh [ENCODING...]
#
# For each encoding (by default UTF-8, windows-1252, windows-1251 and
# Shift_JIS): the development set's files in that encoding
# (../shared/data/detect-dev/ENCODING/, in name order) are concatenated and
# repeated to 1 MiB, and the first 1 KiB, 64 KiB and 1 MiB are timed; then,
# for the first encoding, the same concatenation repeated to LARGE_MIB
# (default 256) MiB (uchardet reads all of it: a legacy one takes minutes). Each line
# gives the median wall-clock time of RUNS runs (default 9; 3 for the large
# file) of each command and the mean CPU time (user and system), each with
# the ratio uchardet / mojiscope (above 1 when mojiscope is faster), and what
# each named first. The row "empty file" is what starting
# each process costs. Needs hyperfine and uchardet (as programs to compare
# with, never dependencies); the machine should be otherwise idle.
set -eu
cd "$(dirname "$0")/.."
runs=${RUNS:-9}
large_mib=${LARGE_MIB:-256}
data=${DETECT_DEV:-../shared/data/detect-dev}
cargo build --release -q -p mojiscope --bin mojiscope
packaging/build-cli.sh >/dev/null
target=$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
# The command line as the Debian package installs it (/usr/bin/mojiscope):
# mojiscope-cli, without the desktop app's libraries (app/src/cli/entry.rs),
# linked statically (packaging/build-cli.sh). OURS=mojiscope times the
# build's one executable, dynamically linked, instead.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Timed as installed: a copy written whole, as dpkg writes /usr/bin/mojiscope
# (and /usr/bin/uchardet). The linker writes its output piece by piece, and
# the kernel then maps that file's pages into a starting process a few at a
# time: about 40 more page faults, 0.3 ms, at every start of the executable
# as the build left it.
cp "$target/release/${OURS:-mojiscope-cli}" "$work/mojiscope"
ours="$work/mojiscope"
if [ "$#" -eq 0 ]; then
    set -- UTF-8 windows-1252 windows-1251 Shift_JIS
fi

# time_row NAME SIZE FILE RUNS: one line of the table.
time_row() {
    hyperfine -N --warmup 1 --runs "$4" --export-json "$work/times.json" \
        "$ours detect $3" "uchardet $3" >/dev/null 2>&1
    if [ -s "$3" ]; then
        said=$("$ours" detect "$3" 2>/dev/null | head -n 1 | cut -f 1)
        peer=$(uchardet "$3")
    else
        said= peer=
    fi
    # The medians of wall-clock time, then the mean CPU time (user and
    # system), in the order the commands were given: on a shared machine
    # the CPU time is the steadier of the two.
    {
        sed -n 's/.*"median": *\([0-9.e-]*\).*/\1/p' "$work/times.json"
        sed -n 's/.*"user": *\([0-9.e-]*\).*/\1/p' "$work/times.json"
        sed -n 's/.*"system": *\([0-9.e-]*\).*/\1/p' "$work/times.json"
    } | tr '\n' ' ' |
        awk -v name="$1" -v size="$2" -v said="$said" -v peer="$peer" '{
            printf "| %s | %s | %.2f ms | %.2f ms | %.2f | %.2f ms | %.2f ms | %.2f | %s | %s |\n",
                name, size, $1 * 1000, $2 * 1000, $2 / $1,
                ($3 + $5) * 1000, ($4 + $6) * 1000, ($4 + $6) / ($3 + $5), said, peer
        }'
}

echo "| input | size | mojiscope detect, wall | uchardet, wall | ratio | mojiscope detect, CPU | uchardet, CPU | ratio | mojiscope says | uchardet says |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
: >"$work/empty"
time_row "empty file" 0 "$work/empty" "$runs"
for name in "$@"; do
    [ -d "$data/$name" ] || { echo "no directory $data/$name" >&2; exit 1; }
    cat "$data/$name"/* >"$work/one"
    : >"$work/all"
    while [ "$(wc -c <"$work/all")" -lt 1048576 ]; do cat "$work/one" >>"$work/all"; done
    for size in 1024:"1 KiB" 65536:"64 KiB" 1048576:"1 MiB"; do
        head -c "${size%%:*}" "$work/all" >"$work/input"
        time_row "$name" "${size#*:}" "$work/input" "$runs"
    done
done
for name in "$1"; do
    cat "$data/$name"/* >"$work/one"
    : >"$work/large"
    while [ "$(wc -c <"$work/large")" -lt $((large_mib * 1048576)) ]; do
        cat "$work/one" "$work/one" "$work/one" "$work/one" >>"$work/large"
    done
    time_row "$name" "$(($(wc -c <"$work/large") / 1048576)) MiB" "$work/large" 3
    rm -f "$work/large"
done
