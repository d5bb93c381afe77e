#!/usr/bin/env bash
# Times `mojiscope scan` against uchardet over the same real files, side by
# side in one run.
#
#   tools/bench-scan.sh [DIR...]        (default: /usr/share/doc /usr/share/man)
#
# Builds the release binary first (set MOJISCOPE_BIN to time another build).
# The files are the regular files under DIR (no symbolic links, as scan
# walks them). Before timing, every file is read once so that both tools
# find them in the page cache. Each tool then runs RUNS times (default 3),
# taking turns, and every run's wall-clock time is printed:
#   - mojiscope scan DIR...            (one process, every core)
#   - uchardet over every file, as find -exec uchardet {} + runs it
#   - uchardet on every core (xargs -P NPROC, 256 files a process)
# uchardet is given the same file list scan walks.
set -euo pipefail

cd "$(dirname "$0")/.."
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
    dirs=(/usr/share/doc /usr/share/man)
fi
runs=${RUNS:-3}
cores=$(nproc)

if [ -z "${MOJISCOPE_BIN:-}" ]; then
    cargo build --release --quiet -p mojiscope
    MOJISCOPE_BIN="${CARGO_TARGET_DIR:-target}/release/mojiscope"
fi
command -v uchardet >/dev/null || { echo "uchardet is not installed" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

find "${dirs[@]}" -type f -print0 > "$work/files"
files=$(tr -cd '\0' < "$work/files" | wc -c)
bytes=$(du -cb --apparent-size --files0-from="$work/files" | tail -n 1 | cut -f 1)
echo "files: $files"
echo "bytes: $bytes"
echo "cores: $cores"
echo "mojiscope: $("$MOJISCOPE_BIN" --version)"
echo "uchardet: $(uchardet --version 2>&1 | grep -m 1 -i version || true)"

# Warm the page cache.
xargs -0 cat < "$work/files" > /dev/null

seconds() {
    local start end
    start=$(date +%s.%N)
    "$@"
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

scan() { "$MOJISCOPE_BIN" scan "${dirs[@]}" > "$work/scan.out" 2> /dev/null || true; }
uchardet_one() { xargs -0 uchardet < "$work/files" > "$work/uchardet.out" 2> /dev/null || true; }
uchardet_all() {
    xargs -0 -P "$cores" -n 256 uchardet < "$work/files" > "$work/uchardet-p.out" 2> /dev/null || true
}

declare -A times
tools=(scan uchardet_one uchardet_all)
for run in $(seq "$runs"); do
    for tool in "${tools[@]}"; do
        times[$tool]+=$(printf '%10.2f' "$(seconds "$tool")")
    done
done
printf '%-14s' "seconds"
for run in $(seq "$runs"); do printf '%10s' "run $run"; done
echo
for tool in "${tools[@]}"; do
    printf '%-14s%s\n' "$tool" "${times[$tool]}"
done
echo "lines: scan $(wc -l < "$work/scan.out"), uchardet $(wc -l < "$work/uchardet.out"), uchardet -P $(wc -l < "$work/uchardet-p.out")"
