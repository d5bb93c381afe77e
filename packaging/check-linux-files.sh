#!/usr/bin/env bash
# Validates the Linux desktop integration files in packaging/linux/: the
# .desktop file (desktop-file-validate, Debian: desktop-file-utils) and the
# AppStream metainfo (appstreamcli validate, offline; Debian: appstream).
# Both tools fail on errors and warnings; AppStream's infos are printed only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/linux"

desktop-file-validate mojiscope.desktop
echo "mojiscope.desktop: valid"
appstreamcli validate --no-net io.github.mojiscope.mojiscope.metainfo.xml
# The metainfo launches the desktop file, which must be the one installed.
grep -q '<launchable type="desktop-id">mojiscope.desktop</launchable>' \
  io.github.mojiscope.mojiscope.metainfo.xml
