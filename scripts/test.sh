#!/usr/bin/env bash
# Installs what the tests need, runs every test, then a short fuzz run of the pass parser.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
swift build --build-tests
swift test --skip-build 2>&1 | tee .build/test-output.txt
Fuzz/run.sh "${FUZZ_SECONDS:-30}" 2>&1 | tail -n 8
grep -E "Test run with [0-9]+ tests? .*passed" .build/test-output.txt | tail -n 1
