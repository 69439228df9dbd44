#!/usr/bin/env bash
# Installs the Debian packages named that are not installed yet: the one installer of every script here (the two
# commands' dependencies, the browser's and the SMTP relay's, the packages', LAN and QEMU tests' tools). Quiet and
# idempotent; as root or through sudo (DEBIAN_FRONTEND goes through `env`: sudo would drop it).
#
#   scripts/apt-install.sh PACKAGE...
set -euo pipefail
missing=()
for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
$sudo apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
