#!/usr/bin/env bash
# Installs what the tests need (Debian's chromium for the organizer pages' browser tests too), starts a
# throwaway PostgreSQL on loopback (scripts/postgres.sh: the server's tests run on SQLite and on PostgreSQL), checks the formatting (swift format lint, .swift-format), runs every
# test, then a short fuzz run of every fuzz target (Fuzz/run.sh ci: FUZZ_RUNS inputs each, by default 60000, from a
# fixed seed, so the step fuzzes the same inputs on every run of a commit; about 2 minutes, building included).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage's end is printed with the seconds since the start (the CI time budget is tracked from them).
stage() { echo "test.sh: $1 done at ${SECONDS} s" >&2; }
source scripts/install-deps.sh
scripts/install-chromium.sh
scripts/install-axe.sh
scripts/install-smtp.sh
source scripts/postgres.sh
stage "set-up"
swift format lint --strict --recursive --parallel Sources Tests Fuzz Package.swift Benchmarks/Package.swift Benchmarks/Sources
stage "lint"
# The module graph against docs/ARCHITECTURE.md's rules (no build: the manifest and the imports).
python3 scripts/module-graph.py
# No debug information: a from-scratch build (two copies of BoringSSL among the dependencies) is about 11% faster
# on 2 cores, and a failure still names its test, file and line. TEST_DEBUG_INFO=dwarf for a debugger.
# (The index store stays: SwiftPM finds the tests on Linux through it, and a build without one has no test list.)
debug_info=(-debug-info-format "${TEST_DEBUG_INFO:-none}")
swift build --build-tests "${debug_info[@]}"
stage "build"
# One run of every test, the browser test among them (its page calls wait on threads of their own and its server
# runs on the test-server threads, so the suite's load on the 2-thread concurrency pool does not starve it). The
# run has a deadline, several times its usual length: a hung test fails the run by name
# (scripts/swift-test-bounded.sh).
# BESIDE_TESTS: a command run in the background while the tests run (.ci/run runs the Debian packages' test there:
# much of the suite waits on live processes and the network, so it takes cores the tests leave idle); its output goes to
# .build/beside-tests.log, and its failure fails this script after the tests.
if [ -n "${BESIDE_TESTS:-}" ]; then
    bash -c "$BESIDE_TESTS" > .build/beside-tests.log 2>&1 &
    beside=$!
fi
status=0
scripts/swift-test-bounded.sh .build/test-output.txt "${TEST_DEADLINE:-1500}" --skip-build "${debug_info[@]}" || status=$?
if [ "$status" != 0 ]; then
    # What the tests' PostgreSQL refused or failed at, counted, and its checkpoints that took over 10 s (every
    # DROP DATABASE waits for one): a PostgresClient that cannot go on waits without saying why, so a PostgreSQL
    # test's failure may only show here.
    echo "the tests failed; the tests' PostgreSQL said (.build/pg/server.log, FATAL/PANIC/ERROR lines by message):" >&2
    sed -nE 's/^.*(FATAL|PANIC|ERROR): +/\1: /p' .build/pg/server.log 2>/dev/null | sort | uniq -c | sort -rn |
        head -n 15 >&2 || true
    grep -E "checkpoint complete:.*total=([1-9][0-9]+|[0-9]{3,})\." .build/pg/server.log 2>/dev/null | tail -n 5 >&2 || true
    echo "its statements over 2 s and lock waits over 1 s, the last 15:" >&2
    grep -E "duration: [0-9]+\.[0-9]+ ms|still waiting for|acquired .* after" .build/pg/server.log 2>/dev/null |
        tail -n 15 >&2 || true
    exit "$status"
fi
stage "tests"
if [ -n "${BESIDE_TESTS:-}" ] && ! wait "$beside"; then
    tail -n 40 .build/beside-tests.log
    echo "test.sh: the command beside the tests failed: $BESIDE_TESTS" >&2
    exit 1
fi
# FUZZ_RUNS=0 leaves the fuzz step out (.ci/run runs it itself, beside the hardware-in-the-loop build).
if [ "${FUZZ_RUNS:-60000}" != 0 ]; then Fuzz/run.sh ci "${FUZZ_RUNS:-60000}" 2>&1 | tail -n 12; fi
grep -hE "Test run with [0-9]+ tests? .*passed" .build/test-output.txt
