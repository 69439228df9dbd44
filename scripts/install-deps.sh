#!/usr/bin/env bash
# Installs the Debian packages the kiosk builds and runs with, and openssl and curl for the check-in server's TLS
# test (idempotent; quiet when all are present).
set -euo pipefail
packages=(pkg-config libzbar-dev libzxing-dev libv4l-dev libsqlite3-dev libssl-dev libqrencode-dev libpng-dev libturbojpeg0-dev libfreetype-dev libcurl4-openssl-dev libasound2-dev fonts-dejavu-core openssl curl)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
  for d in /opt/swift/usr/bin /usr/share/swift/usr/bin; do [ -x "$d/swift" ] && export PATH="$PATH:$d"; done
fi
command -v swift >/dev/null 2>&1 || { echo "error: no Swift toolchain (swift) on PATH; install Swift 6 for Linux first" >&2; exit 1; }
