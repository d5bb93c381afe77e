#!/usr/bin/env bash
# Makes the README's screenshots (assets/screenshots/*.png) by running the real
# desktop app on the test fixtures on a private, headless X server.
#
# Usage: tools/screenshots.sh [NAME...]  (from anywhere; NAMEs: only those shots)
# Environment:
#   MOJISCOPE_BIN  the binary to run (default: target/debug/mojiscope, built
#                  with the test profile, which `cargo test` has already built)
# Needs (Debian): xvfb xdotool imagemagick, and fonts for the fixtures' scripts
# (fonts-noto-cjk for CJK; DejaVu covers Latin, Greek, Cyrillic, Hebrew, Arabic).
#
# There is no window manager on the server, so nothing gives the window the
# keyboard focus by itself: each shot focuses it with xdotool before sending
# keys. Software rendering is slow: each shot waits several seconds.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [ -z "${MOJISCOPE_BIN:-}" ]; then
  cargo build -p mojiscope --profile test
  MOJISCOPE_BIN=target/debug/mojiscope
fi
MOJISCOPE_BIN=$(realpath "$MOJISCOPE_BIN")
for tool in Xvfb xdotool import; do
  command -v "$tool" >/dev/null || { echo "screenshots.sh: needs $tool" >&2; exit 3; }
done
only=("$@")
fixtures=app/tests/fixtures
out=assets/screenshots
mkdir -p "$out"

# A fresh home for every run: no remembered window, panes or recent files.
home=$(mktemp -d)
runtime=$(mktemp -d)
chmod 700 "$runtime"
server=""
app=""
cleanup() {
  [ -n "$app" ] && kill "$app" 2>/dev/null || true
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$home" "$runtime"
}
trap cleanup EXIT
export HOME="$home" XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config"
export XDG_RUNTIME_DIR="$runtime" LANG=C.UTF-8
unset WAYLAND_DISPLAY

# One X server for every shot; it picks a free display number itself.
exec 3< <(Xvfb -displayfd 1 -screen 0 1280x800x24 -nolisten tcp 2>/dev/null & echo "pid $!")
read -r _ server <&3
read -r display <&3
export DISPLAY=":$display"

# settings RON: the app starts the next shots with these settings (what
# eframe stores under the key mojiscope.settings), as if remembered.
settings() {
  mkdir -p "$XDG_DATA_HOME/mojiscope"
  local escaped=${1//\\/\\\\}
  escaped=${escaped//\"/\\\"}
  printf '{"mojiscope.settings":"%s"}\n' "$escaped" >"$XDG_DATA_HOME/mojiscope/app.ron"
}

# shot NAME FILE [ACTION...]: each action is xdotool key arguments ("F8",
# "ctrl+g"), or click:X,Y (a left click at screen pixels X,Y), or
# move:X,Y (the pointer moved there, to rest: a tooltip shows), or
# ctrl-click:X,Y (the same with Ctrl held), or drag:X1,Y1:X2,Y2 (press at
# X1,Y1, move to X2,Y2, release), or type:TEXT (TEXT typed as it is), or
# wait:S (S more seconds). The app runs in the directory SHOT_DIR if set.
shot() {
  local name=$1 file=$2
  shift 2
  if [ ${#only[@]} -gt 0 ] && [[ " ${only[*]} " != *" $name "* ]]; then
    return
  fi
  (cd "${SHOT_DIR:-.}" && exec "$MOJISCOPE_BIN" "$file") >"$home/$name.log" 2>&1 &
  app=$!
  local window=""
  for _ in $(seq 1 100); do
    window=$(xdotool search --name 'mojiscope$' 2>/dev/null | head -1) && [ -n "$window" ] && break
    sleep 0.2
  done
  [ -n "$window" ] || { echo "screenshots.sh: $name: no window (see $home/$name.log)" >&2; exit 5; }
  sleep 6
  xdotool windowfocus --sync "$window"
  xdotool mousemove 1200 780
  for action in "$@"; do
    case "$action" in
      click:*)
        local at=${action#click:}
        xdotool mousemove --sync ${at/,/ } click 1 ;;
      move:*)
        local at=${action#move:}
        xdotool mousemove --sync ${at/,/ } ;;
      ctrl-click:*)
        local at=${action#ctrl-click:}
        xdotool mousemove --sync ${at/,/ } keydown ctrl click 1 keyup ctrl ;;
      drag:*)
        local from=${action#drag:}
        local to=${from#*:}
        from=${from%%:*}
        xdotool mousemove --sync ${from/,/ } mousedown 1
        sleep 0.3
        xdotool mousemove --sync ${to/,/ }
        sleep 0.3
        xdotool mouseup 1 ;;
      type:*)
        xdotool type --delay 80 -- "${action#type:}" ;;
      wait:*)
        sleep "${action#wait:}" ;;
      *)
        xdotool key "$action" ;;
    esac
    sleep 1
  done
  sleep 2
  import -window root "$out/$name.png"
  kill "$app"
  wait "$app" 2>/dev/null || true
  app=""
  echo "wrote $out/$name.png"
}

# UTF-8 with four errors; Ctrl+2 focuses the UTF-8 pane (detection ranks
# x-mac-cyrillic first on these 39 bytes) and F8 twice selects its second
# error, in every view.
shot utf8-errors "$fixtures/utf8-errors.txt" ctrl+2 F8 F8
# Shift_JIS: detection puts the Shift_JIS pane first; Ctrl+2 focuses the
# UTF-8 pane beside it, where F8 selects its first error in every view.
shot shift-jis "$fixtures/shift_jis.txt" ctrl+2 F8
# UTF-16LE with a byte order mark: no override.
shot utf16le-bom "$fixtures/utf16le-bom.txt"
# Mixed scripts in UTF-8: CJK, Cyrillic and Greek side by side.
shot utf8-scripts "$fixtures/utf8.txt"
# The teaching views. The decoder's steps: の (0x82 0xCC) selected in the
# Shift_JIS pane, the inspector made taller (View ▸ Grow the inspector, three
# steps), each pane's steps opened.
shot explain "$fixtures/shift_jis.txt" ctrl+shift+Up ctrl+shift+Up ctrl+shift+Up \
  click:468,161 click:870,327 click:444,360 click:16,327
# Learn ▸ Code page chart: windows-1252 against ISO-8859-15.
shot code-page-chart "$fixtures/shift_jis.txt" click:196,12 click:245,39
# Learn ▸ Index browser: index jis0208 as Shift_JIS lays it out, 熙 found.
shot index-browser "$fixtures/shift_jis.txt" click:196,12 click:245,62 \
  click:460,166 type:U+7199 Return
# Learn ▸ Where is this character?: the euro sign in every encoding.
shot where-is "$fixtures/shift_jis.txt" click:196,12 click:245,85 \
  click:235,171 ctrl+a type:U+20AC
# Learn ▸ Mojibake lab: "été" as UTF-8 read as windows-1252, and back.
shot mojibake-lab "$fixtures/shift_jis.txt" click:196,12 click:245,107 \
  click:220,438 click:199,507
# File ▸ Save as (Ctrl+Shift+S) on the mixed scripts, with windows-1252 and
# html mode remembered from an earlier save: every character windows-1252
# cannot encode and its &#N;, the standard's warning, the round trip.
settings '(recent: [], hex_width: 16, dark_mode: true, save: (encoding: "windows-1252", html: true, bom: false, backup: false))'
# Save as shows the folder of the target, under the home folder as "~/…":
# the file is opened from the run's own home, so that no path of this
# machine appears in the picture.
mkdir -p "$home/Documents/letters"
cp "$fixtures/utf8.txt" "$home/Documents/letters/notes.txt"
SHOT_DIR=$home/Documents shot save-as letters/notes.txt ctrl+shift+s
# Repair ▸ Repair mojibake… (Ctrl+Shift+R) on a file with damaged names and
# places among clean lines: the changes by chain, one clicked to see it in
# context and its bytes selected in every view.
shot repair "$fixtures/mojibake.txt" ctrl+shift+r click:390,337
# Edit ▸ Reinterpret selection… (Ctrl+E) on the name line, selected from the
# keyboard in pane 1: the readings ranked, the best beside the selection.
shot reinterpret "$fixtures/mojibake.txt" ctrl+1 Down Down Home shift+End ctrl+e
# Enter applies it: pane 1 shows the reinterpretation in place of the name,
# marked (Down moves the selection off it), and the pointer resting on it
# tells what was there and how.
shot reinterpreted "$fixtures/mojibake.txt" ctrl+1 Down Down Home shift+End ctrl+e Return \
  Down move:745,181

# File ▸ Open folder… (Ctrl+Shift+O) on a small tree under a neutral name,
# typed as a relative path (no folder chooser on the server, as the notice
# says): real encodings, a mixed file, a binary, an empty file, a FIFO.
tree=$(mktemp -d -t mojiscope.XXXXXX)
mkdir -p "$tree/archive/letters"
printf 'Ch\xe8re H\xe9l\xe8ne,\nle caf\xe9 de la gare a ferm\xe9 ; nous irons \xe0 l\x27h\xf4tel pr\xe8s du march\xe9.\n\xc0 bient\xf4t, Fran\xe7ois\n' \
  >"$tree/archive/letters/lettre.txt"
printf 'Liebe Grüße aus Köln, die Straßenbahn fährt wieder über die Brücke.\n' \
  >"$tree/archive/letters/gruesse.txt"
cp "$fixtures/shift_jis.txt" "$tree/archive/memo-ja.txt"
cp "$fixtures/utf16le-bom.txt" "$tree/archive/readme-utf16.txt"
cp "$fixtures/mojibake.txt" "$tree/archive/client.txt"
for _ in 1 2 3; do
  printf 'Die Straßenbahn fährt über die Brücke, die Bäckerei öffnet früh.\n'
done >"$tree/archive/letters/notiz.txt"
printf 'Zwei Bytes sind verloren: \xe2\x80 und \xc3.\n' >>"$tree/archive/letters/notiz.txt"
{
  printf 'Name;Straße;Ort;Bemerkung\n'
  printf 'Müller;Hauptstraße 5;München;Größe geprüft\n'
  printf 'Schäfer;Bahnhofsweg 12;Düsseldorf;Lieferung über Köln\n'
  printf 'Jäger;Gartenstraße 3;Nürnberg;Qualität sehr gut\n'
  printf 'Lef\xe8vre;Rue de l\x27\xc9glise 8;Orl\xe9ans;livr\xe9 apr\xe8s l\x27\xe9t\xe9\n'
  printf 'Fran\xe7ois;Place du March\xe9 2;Besan\xe7on;qualit\xe9 v\xe9rifi\xe9e\n'
} >"$tree/archive/export.csv"
head -c 3000 "$MOJISCOPE_BIN" >"$tree/archive/logo.bin"
: >"$tree/archive/empty.txt"
mkfifo "$tree/archive/pipe"
# From the keyboard after a click: Ctrl+Down moves alone, Space selects.
FOLDER_CLICKS=(wait:5 click:300,249 ctrl+Down ctrl+Down space ctrl+Down space ctrl+Down ctrl+Down space)
CONVERT_CLICKS=(click:650,152)
SHOT_DIR=$tree shot folder archive/letters/lettre.txt ctrl+shift+o type:archive Return \
  "${FOLDER_CLICKS[@]}"
SHOT_DIR=$tree shot folder-convert archive/letters/lettre.txt ctrl+shift+o type:archive Return \
  "${FOLDER_CLICKS[@]}" "${CONVERT_CLICKS[@]}"
rm -rf "$tree"
