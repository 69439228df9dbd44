#!/usr/bin/env bash
# The chaos test as a soak, outside CI (issue 17): CHAOS_SOAK_MINUTES of chaos in all (default 30), split between
# the stores (SQLite, then two serve processes on one PostgreSQL). Prints the seed and each store's summary
# (scans, kills, outages, invariants held); CHAOS_SEED=N replays a seed's steps. docs/benchmarks/2026-11-chaos.md, "Chaos", has the
# figures of a run. Usage: scripts/chaos-soak.sh [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
# A PostgreSQL already given (CHECKIN_TEST_POSTGRES_URL) is used as it is.
[ -n "${CHECKIN_TEST_POSTGRES_URL:-}" ] || source scripts/postgres.sh
swift build --build-tests
CHAOS_SOAK_MINUTES="${1:-${CHAOS_SOAK_MINUTES:-30}}" swift test --skip-build --filter ChaosTests 2>&1 \
    | tee .build/chaos-soak-output.txt
grep -hE "chaos seed:|chaos summary" .build/chaos-soak-output.txt
