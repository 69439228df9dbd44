#!/usr/bin/env bash
# Installs the Debian packages the kiosk builds and runs with, and the openssl command and curl for the check-in server's TLS
# test (idempotent; quiet when all are present).
set -euo pipefail
"$(dirname "${BASH_SOURCE[0]}")"/apt-install.sh pkg-config libzbar-dev libzxing-dev libv4l-dev libsqlite3-dev libqrencode-dev libpng-dev libturbojpeg0-dev libfreetype-dev libcurl4-openssl-dev libasound2-dev fonts-dejavu-core openssl curl
if ! command -v swift >/dev/null 2>&1; then
  for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$d/swift" ] && export PATH="$PATH:$d"; done
fi
command -v swift >/dev/null 2>&1 || { echo "error: no Swift toolchain (swift) on PATH; install Swift 6 for Linux first" >&2; exit 1; }
