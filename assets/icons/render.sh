#!/usr/bin/env bash
# Renders mojiscope.svg to the PNG sizes desktops use. Needs rsvg-convert
# (Debian: librsvg2-bin). Run from anywhere; writes beside this script.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
for size in 16 24 32 48 64 128 256 512; do
  rsvg-convert --width "$size" --height "$size" mojiscope.svg --output "mojiscope-$size.png"
done
