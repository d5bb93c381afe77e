#!/usr/bin/env bash
# Builds target/macos/mojiscope.app: the release binary, Info.plist (from
# packaging/macos/, with the version filled in) and mojiscope.icns, made from
# the icon's PNGs in assets/icons/. Run it on macOS:
#
#   packaging/macos/build-app.sh                    build, then bundle
#   packaging/macos/build-app.sh --binary PATH      bundle a binary built before
#                                                   (for example a universal one made with lipo)
#
# Needs: Rust, and iconutil (part of macOS) or png2icns (libicns) for the icon.
# The bundle is signed ad hoc (codesign -s -), which Apple silicon requires to
# run it; distributing it needs a Developer ID signature and notarisation.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

binary=""
case "${1:-}" in
  --binary) binary=${2:?--binary needs a path} ;;
  "") ;;
  *) echo "usage: $0 [--binary PATH]" >&2; exit 2 ;;
esac

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
target_dir=${CARGO_TARGET_DIR:-target}
if [ -z "$binary" ]; then
  cargo build --release --locked -p mojiscope --bin mojiscope
  binary="$target_dir/release/mojiscope"
fi

app="$target_dir/macos/mojiscope.app"
rm -rf "$app"
mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources"
cp "$binary" "$app/Contents/MacOS/mojiscope"
sed "s/@VERSION@/$version/g" packaging/macos/Info.plist > "$app/Contents/Info.plist"

# The icon: iconutil wants an .iconset directory of PNGs named by point size
# and scale; 512@2x (1024 px) is left out, there is no PNG that large.
icons=assets/icons
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
iconset="$work/mojiscope.iconset"
mkdir "$iconset"
for size in 16 32 128 256 512; do
  cp "$icons/mojiscope-$size.png" "$iconset/icon_${size}x${size}.png"
  if [ -f "$icons/mojiscope-$((size * 2)).png" ]; then
    cp "$icons/mojiscope-$((size * 2)).png" "$iconset/icon_${size}x${size}@2x.png"
  fi
done
icns="$app/Contents/Resources/mojiscope.icns"
if command -v iconutil >/dev/null; then
  iconutil --convert icns --output "$icns" "$iconset"
elif command -v png2icns >/dev/null; then
  png2icns "$icns" "$icons"/mojiscope-{16,32,48,128,256,512}.png >/dev/null
else
  echo "$0: need iconutil (macOS) or png2icns (libicns) to make the icon" >&2
  exit 3
fi

if command -v codesign >/dev/null; then
  codesign --force --sign - "$app"
fi
echo "built $app (version $version)"
