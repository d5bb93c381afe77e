#!/usr/bin/env bash
# Builds the command line alone, mojiscope-cli (what the Debian package
# installs as /usr/bin/mojiscope), linked statically, in the release profile,
# and prints its path on the last line.
#
#   packaging/build-cli.sh
#
# Static, because every command starts a process: the dynamic loader's work
# (loading libc, libm and libgcc_s, resolving and relocating their symbols)
# cost each command about 0.5 ms, as much as detecting the encoding of a
# 1 KiB file (core/DETECTION.md, Speed). It is a static PIE, so the
# executable's address is still randomised. The command line resolves no
# user or host names, so static glibc's limits there do not touch it; the
# desktop app, which loads graphics libraries at run time, stays dynamic.
# Needs glibc's static library (Debian: libc6-dev, which build-essential
# brings).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Only this executable gets the flag (`cargo rustc` passes it to the last
# crate alone): the libraries are the release build's, shared with the app.
cargo rustc --locked --quiet --release -p mojiscope --bin mojiscope-cli \
  -- -C target-feature=+crt-static
executable="${CARGO_TARGET_DIR:-target}/release/mojiscope-cli"
if readelf --program-headers "$executable" | grep -q INTERP; then
  echo "$0: $executable asks for a dynamic loader: it was not linked statically" >&2
  exit 1
fi
echo "$executable"
