#!/usr/bin/env bash
# Builds the Debian package, target/debian/mojiscope_<version>-1_<arch>.deb,
# and prints its path on the last line.
#
#   packaging/build-deb.sh                  a release build: the package to install
#   packaging/build-deb.sh --prebuilt DIR   package the executables mojiscope and
#                                           mojiscope-cli in DIR as they are, without
#                                           building (CI packages those its tests ran)
#
# Needs cargo-deb (cargo install --locked cargo-deb) and dpkg-shlibdeps
# (Debian: dpkg-dev, which build-essential brings). The package's contents are
# listed in app/Cargo.toml, [package.metadata.deb]. First this writes the man
# pages and the shell completions, generated from the clap definition by the
# example app/examples/man_and_completions.rs, where those assets expect them.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

prebuilt=""
case "${1:-}" in
  --prebuilt) prebuilt=${2:?--prebuilt needs the folder of the mojiscope executables} ;;
  "") ;;
  *) echo "usage: $0 [--prebuilt DIR]" >&2; exit 2 ;;
esac
if ! cargo deb --version >/dev/null 2>&1; then
  echo "$0: cargo-deb is missing: cargo install --locked cargo-deb" >&2
  exit 3
fi

target_dir=${CARGO_TARGET_DIR:-target}
if [ -n "$prebuilt" ]; then
  # cargo-deb reads "target/release/" in the assets as the output directory
  # of the profile it is given; "prebuilt" is no Cargo profile, only the
  # directory that holds what is packaged.
  profile_dir=prebuilt
  generator_profile=(--profile test) # what `cargo test` has built already
  # Strip it as the release profile does (strip = true).
  deb_options=(--profile prebuilt --no-build --strip)
  mkdir -p "$target_dir/$profile_dir"
  for executable in mojiscope mojiscope-cli; do
    cp "$prebuilt/$executable" "$target_dir/$profile_dir/$executable"
  done
else
  profile_dir=release
  # The example shares the release build of the library and its
  # dependencies with the executables built next: the app, then the
  # command line alone, linked statically (packaging/build-cli.sh says why).
  generator_profile=(--release)
  cargo build --locked --quiet --release -p mojiscope --bin mojiscope
  packaging/build-cli.sh >/dev/null
  deb_options=(--no-build)
fi

generated="$target_dir/$profile_dir/packaging"
rm -rf "$generated"
cargo run --locked --quiet "${generator_profile[@]}" -p mojiscope \
  --example man_and_completions -- "$generated"
gzip -9 --no-name "$generated"/man/*.1

deb=$(cargo deb --locked -p mojiscope "${deb_options[@]}")
echo "$deb"
