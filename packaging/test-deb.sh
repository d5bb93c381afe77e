#!/usr/bin/env bash
# Installs a mojiscope .deb with dpkg, checks that it runs and that its files
# landed, then purges it and checks that they are gone. For CI machines and
# throwaway containers: it installs the package's dependencies with apt-get
# and needs root (or sudo). It refuses to run where mojiscope is installed.
#
#   packaging/test-deb.sh target/debian/mojiscope_0.1.0-1_amd64.deb
#
# Where xvfb-run is installed it also starts the desktop app on a headless X
# server and checks that it is still running after a few seconds.
set -euo pipefail

deb=${1:?usage: $0 PATH.deb}
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
fail() {
  echo "test-deb: FAILED: $*" >&2
  exit 1
}
if dpkg-query --show --showformat='${Status}' mojiscope 2>/dev/null | grep -q installed; then
  fail "mojiscope is installed already; this test installs and purges it"
fi

package=$(dpkg-deb --field "$deb" Package)
version=$(dpkg-deb --field "$deb" Version)
[ "$package" = mojiscope ] || fail "the package is $package, not mojiscope"

echo "== its dependencies (apt-get), then the package (dpkg -i)"
# Depends without version constraints, the first of any alternatives.
depends=$(dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//' | xargs)
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086 # one word per package
$SUDO apt-get install -y --no-install-recommends $depends >/dev/null
$SUDO dpkg -i "$deb"

echo "== it runs"
[ "$(command -v mojiscope)" = /usr/bin/mojiscope ] || fail "mojiscope is not /usr/bin/mojiscope"
[ "$(mojiscope --version)" = "mojiscope ${version%-*}" ] ||
  fail "mojiscope --version says '$(mojiscope --version)', the package is $version"
[ "$(mojiscope label latin1)" = windows-1252 ] || fail "mojiscope label latin1"
[ "$(printf 'caf\xe9\n' | mojiscope decode --encoding latin1)" = café ] || fail "mojiscope decode"
# /usr/bin/mojiscope is the command line alone; the desktop app's
# executable, which `mojiscope FILE` starts, answers the subcommands too.
[ "$(/usr/lib/mojiscope/mojiscope label latin1)" = windows-1252 ] ||
  fail "/usr/lib/mojiscope/mojiscope label latin1"

echo "== its files landed"
files=$(dpkg-query --listfiles mojiscope)
expected=(
  /usr/bin/mojiscope
  /usr/lib/mojiscope/mojiscope
  /usr/share/applications/mojiscope.desktop
  /usr/share/metainfo/io.github.mojiscope.mojiscope.metainfo.xml
  /usr/share/icons/hicolor/scalable/apps/mojiscope.svg
  /usr/share/man/man1/mojiscope.1.gz
  /usr/share/man/man1/mojiscope-decode.1.gz
  /usr/share/bash-completion/completions/mojiscope
  /usr/share/zsh/vendor-completions/_mojiscope
  /usr/share/fish/vendor_completions.d/mojiscope.fish
  /usr/share/doc/mojiscope/copyright
)
for size in 16 24 32 48 64 128 256 512; do
  expected+=("/usr/share/icons/hicolor/${size}x${size}/apps/mojiscope.png")
done
for path in "${expected[@]}"; do
  grep -qx "$path" <<<"$files" || fail "$path is not in the package"
  [ -s "$path" ] || fail "$path is missing or empty"
done
# The files are what they claim to be.
desktop-file-validate /usr/share/applications/mojiscope.desktop
appstreamcli validate --no-net /usr/share/metainfo/io.github.mojiscope.mojiscope.metainfo.xml
zgrep -q '^\.TH mojiscope 1' /usr/share/man/man1/mojiscope.1.gz || fail "the man page has no title"
zgrep -q 'no\\-bom' /usr/share/man/man1/mojiscope-decode.1.gz || fail "mojiscope-decode(1) lacks --no-bom"
completion=$(bash -c 'source /usr/share/bash-completion/completions/mojiscope && complete -p mojiscope')
[[ $completion == *mojiscope* ]] || fail "the bash completion registers nothing"
grep -q '#compdef mojiscope' /usr/share/zsh/vendor-completions/_mojiscope || fail "zsh completion"
grep -q 'complete -c mojiscope' /usr/share/fish/vendor_completions.d/mojiscope.fish || fail "fish completion"
grep -q 'License: CC-BY-4.0' /usr/share/doc/mojiscope/copyright || fail "the copyright file lacks the WHATWG credit"

if command -v xvfb-run >/dev/null; then
  echo "== the desktop app starts (xvfb-run)"
  runtime=$(mktemp -d)
  status=0
  # timeout ends the app after 8 seconds: 124 means it was still running.
  env -u WAYLAND_DISPLAY XDG_RUNTIME_DIR="$runtime" HOME="$runtime" \
    xvfb-run --auto-servernum timeout 8 mojiscope /usr/share/doc/mojiscope/copyright \
    >"$runtime/log" 2>&1 || status=$?
  if [ "$status" -ne 124 ]; then
    cat "$runtime/log" >&2
    fail "the desktop app exited with status $status within 8 seconds"
  fi
  rm -rf "$runtime"
else
  echo "== (xvfb-run is not installed: the desktop app is not started)"
fi

echo "== purge (dpkg --purge), and nothing is left"
$SUDO dpkg --purge mojiscope
for path in $files; do
  if [ -f "$path" ] || [ -L "$path" ]; then fail "$path is still there after the purge"; fi
done
if command -v mojiscope >/dev/null; then fail "mojiscope is still on PATH"; fi
echo "test-deb: $package $version installed, ran, and purged cleanly"
