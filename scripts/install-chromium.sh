#!/usr/bin/env bash
# Installs Debian's headless-capable Chromium and a basic font for the browser tests (TestSupport.Chromium).
# Quiet and idempotent: does nothing when the packages are already installed. Works as root or through sudo
# (DEBIAN_FRONTEND goes through `env` because sudo would drop it from the environment).
set -euo pipefail

"$(dirname "$0")"/apt-install.sh chromium fonts-dejavu-core
