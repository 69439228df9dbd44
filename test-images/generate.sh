#!/usr/bin/env bash
# Regenerates the golden door images, manifest.json, roster.csv and keys/ of this folder.
# Deterministic: seed 1 gives the same keys, roster and images (the committed ones).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
swift build -c release --product kioskctl >&2
find test-images -maxdepth 1 -type f \( -name '*.png' -o -name '*.jpg' -o -name '*.pgm' \) -delete
"$(swift build -c release --show-bin-path)/kiosk-demo" testset --out test-images --seed "${1:-1}"
