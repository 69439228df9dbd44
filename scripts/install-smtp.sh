#!/usr/bin/env bash
# Installs Debian's aiosmtpd for the mail tests' SMTP relay (Tests/SMTP/relay.py, run by TestSupport.TestSMTPRelay
# with /usr/bin/python3: a pyenv python3 on PATH would not see Debian's packages). Quiet and idempotent: does
# nothing when the package is installed. Works as root or through sudo.
set -euo pipefail

packages=(python3-aiosmtpd)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
/usr/bin/python3 -c 'import aiosmtpd.controller' || {
    echo "error: /usr/bin/python3 cannot import aiosmtpd after installing python3-aiosmtpd" >&2
    exit 1
}
