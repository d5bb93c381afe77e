#!/usr/bin/env bash
# Makes the README's screenshots (assets/screenshots/*.png) by running the real
# desktop app on the test fixtures on a private, headless X server.
#
# Usage: tools/screenshots.sh            (from anywhere; builds target/debug/mojiscope)
# Environment:
#   MOJISCOPE_BIN  the binary to run instead of building one
#   GUI_SHOT       the screenshot tool (default: ../shared/tools/gui-shot.sh)
# Needs (Debian): xvfb xdotool imagemagick, and fonts for the fixtures' scripts
# (fonts-noto-cjk for the Japanese ones; DejaVu covers Cyrillic and Greek).
# Software rendering is slow: each shot waits several seconds.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

gui_shot=${GUI_SHOT:-../shared/tools/gui-shot.sh}
if [ -z "${MOJISCOPE_BIN:-}" ]; then
  cargo build -p mojiscope
  MOJISCOPE_BIN=target/debug/mojiscope
fi
fixtures=app/tests/fixtures
out=assets/screenshots
mkdir -p "$out"

# A fresh home for every run: no remembered window, panes or recent files.
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config"
export LANG=C.UTF-8

shot() {
  local name=$1
  shift
  "$gui_shot" --log "$home/$name.log" "$@"
  echo "wrote $out/$name.png"
}

# UTF-8 with four errors; F8 selects the first one in every view.
shot utf8-errors --keys F8 --settle 3 "$out/utf8-errors.png" 8 -- "$MOJISCOPE_BIN" "$fixtures/utf8-errors.txt"
# Shift_JIS: UTF-8 fails, the Shift_JIS pane reads it.
shot shift-jis "$out/shift-jis.png" 8 -- "$MOJISCOPE_BIN" "$fixtures/shift_jis.txt"
# UTF-16LE with a byte order mark: no override.
shot utf16le-bom "$out/utf16le-bom.png" 8 -- "$MOJISCOPE_BIN" "$fixtures/utf16le-bom.txt"
# Mixed scripts in UTF-8, light theme off by default: the welcome screen is
# not shown; this one shows CJK, Cyrillic and Greek side by side.
shot utf8-scripts "$out/utf8-scripts.png" 8 -- "$MOJISCOPE_BIN" "$fixtures/utf8.txt"
