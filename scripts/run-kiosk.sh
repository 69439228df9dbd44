#!/usr/bin/env bash
# The kiosk on its embedded default: a demo event made on the spot (keys, a roster of 300 guests in
# SQLite, passes rendered as door images), the camera replaced by replaying those images, the verdicts
# on the text status display (standard error) and as JSON lines (standard output).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
swift build -c release --product kiosk >&2
swift build -c release --product kioskctl >&2
bin=$(swift build -c release --show-bin-path)
"$bin/kioskctl" demo --dir .demo >&2
exec "$bin/kiosk" --config .demo/kiosk.conf --replay .demo/images "$@"
