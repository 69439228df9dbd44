#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium and a basic font for the browser tests (TestSupport.Chromium).
# Quiet and idempotent: does nothing when the packages are already installed. Works as root or through sudo
# (DEBIAN_FRONTEND goes through `env` because sudo would drop it from the environment).
set -euo pipefail

packages=(chromium fonts-dejavu-core)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
