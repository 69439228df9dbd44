#!/usr/bin/env bash
# Installs Debian's aiosmtpd for the mail tests' SMTP relay (Tests/SMTP/relay.py, run by TestSupport.TestSMTPRelay
# with /usr/bin/python3: a pyenv python3 on PATH would not see Debian's packages). Quiet and idempotent: does
# nothing when the package is installed. Works as root or through sudo.
set -euo pipefail

"$(dirname "$0")"/apt-install.sh python3-aiosmtpd
/usr/bin/python3 -c 'import aiosmtpd.controller' || {
    echo "error: /usr/bin/python3 cannot import aiosmtpd after installing python3-aiosmtpd" >&2
    exit 1
}
