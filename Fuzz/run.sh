#!/usr/bin/env bash
# Builds the pass-parser fuzzer with libFuzzer and AddressSanitizer and runs it for a while.
# Usage: Fuzz/run.sh [seconds]   (default 60). Crashes are written to .build/fuzz/crash-*.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=.build/fuzz
mkdir -p "$out/corpus"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name KioskCore \
  Sources/KioskCore/*.swift Fuzz/PassParserFuzz.swift -o "$out/pass-parser-fuzz"
# Seeds: a well-formed pass URL, a bare token and junk.
printf 'HTTPS://PASS.EXAMPLE.ORG/P/%s' "$(head -c 136 /dev/zero | tr '\0' 'A' | sed 's/^A/C/')" > "$out/corpus/seed-url"
printf 'https://example.com/index.html' > "$out/corpus/seed-random-url"
"$out/pass-parser-fuzz" "$out/corpus" -max_total_time="$seconds" -max_len=4096 -artifact_prefix="$out/" -print_final_stats=1
