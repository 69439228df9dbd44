#!/usr/bin/env bash
# Builds libFuzzer targets and runs them: SwiftPM compiles the product's modules with the fuzzer and address
# sanitizers (and -enable-testing) in a scratch folder of its own; swiftc links each harness against them.
#
#   Fuzz/run.sh TARGET [SECONDS]   fuzz one target for SECONDS (default 60)
#   Fuzz/run.sh all [SECONDS]      fuzz every target in turn, SECONDS each (default 15)
#   Fuzz/run.sh ci [RUNS]          build, then run every target RUNS inputs (default 60000) from a fixed seed
#                                  with deterministic hashing: the CI step (scripts/test.sh). The same commit
#                                  fuzzes the same inputs on every run, so CI is never red by chance; exploring
#                                  (`all`, TARGET) draws a new seed each time and finds what CI does not try.
#   Fuzz/run.sh build [TARGET]     only build (every target without one)
#   Fuzz/run.sh list               the targets and what each covers
#   Fuzz/run.sh SECONDS            the pass parser alone (the old interface)
#
# Each target starts from its committed seeds in Fuzz/corpus/TARGET (never written to) and keeps what it
# learns in .build/fuzz/TARGET/corpus; crashes, hangs (> 10 s an input) and out-of-memory inputs go to
# .build/fuzz/TARGET/crashes/. A crash makes the script exit non-zero and print the reproducer's path.
# SwiftPM rebuilds the modules (in .build/fuzz-spm) only when their sources change.
set -euo pipefail
cd "$(dirname "$0")/.."

out=.build/fuzz
lib=$out/lib
targets=(pass-parser config roster-csv roster-page guest-csv png jpeg pgm upload-json device-bodies request-edge peer-message)
swiftc_flags=(-sanitize=fuzzer,address -parse-as-library -O -use-ld=lld)

describe() {
    case $1 in
    pass-parser) echo "pass payloads: PassToken(payload:), PassValidator.check, GuestID(text:), KeyEvent.Parser" ;;
    config) echo "kiosk.conf text: KioskConfiguration.parse" ;;
    roster-csv) echo "roster CSV text: CSVReader.records(in:), RosterCSV.guests(from:tenant:event:)" ;;
    roster-page) echo "roster page JSON from the network: RosterPage(json:), written back by encodedJSON()" ;;
    guest-csv) echo "the server's guest CSV import: GuestCSV.parse" ;;
    png) echo "PNG bytes: ImageFile.decode(data:name:) -> libpng simplified API, PNG round trip" ;;
    jpeg) echo "JPEG bytes: ImageFile.decode(data:name:) -> TurboJPEG, re-encoding" ;;
    pgm) echo "PGM bytes: ImageFile.decode(data:name:) -> Swift P5 reader, PGM round trip" ;;
    upload-json) echo "a device's upload: CheckInBatch(json:) (depth-limited), JSONDecoder's fallback, round trip" ;;
    device-bodies) echo "enrolment and heartbeat bodies: APICoding.decoder(), boundsProblem, round trip" ;;
    request-edge) echo "query strings (QueryString.value, page numbers) and webhook headers (StandardWebhook.verify)" ;;
    peer-message) echo "doors' messages and announcements: PeerMessage.decoded, PeerAnnouncement.read" ;;
    *) return 1 ;;
    esac
}

# Runs a compile only when the hash of its command line and input files changed since the last success.
# Usage: cached STAMP-NAME [MORE-INPUTS...] -- swiftc-arguments...   (inputs: MORE-INPUTS and every existing
# file among the arguments but the outputs after -o and -emit-module-path)
cached() {
    local stamp=$out/stamps/$1; shift
    local more=()
    while [[ $1 != -- ]]; do more+=("$1"); shift; done
    shift
    local hash
    hash=$( {
        printf '%s\n' "$@"
        if [[ ${#more[@]} -gt 0 ]]; then cat "${more[@]}"; fi
        local previous=
        for arg in "$@"; do
            if [[ -f $arg && $previous != -o && $previous != -emit-module-path ]]; then cat "$arg"; fi
            previous=$arg
        done
    } | sha256sum | cut -d' ' -f1)
    if [[ -f $stamp && $(cat "$stamp") == "$hash" ]]; then return 0; fi
    mkdir -p "$out/stamps"
    local started=$SECONDS
    swiftc "$@"
    echo "$hash" > "$stamp"
    echo "  compiled $(basename "$stamp") in $((SECONDS - started)) s"
}

# The product's module TARGET (and what it depends on), compiled by SwiftPM with the sanitizers and
# -enable-testing (so the harnesses can `@testable import` it) into $modules.
spm=.build/fuzz-spm
modules=$spm/release
module() {
    mkdir -p "$out"
    # `--sanitize=fuzzer` alone left the target named by --target without coverage counters (only the modules
    # built as its dependencies carried them: the pass parser fuzzed blind, 84 counters, all in the harness);
    # -sanitize=fuzzer handed to every swiftc call instruments each module whichever target is named.
    swift build --scratch-path "$spm" -c release --sanitize=fuzzer --sanitize=address -Xswiftc -enable-testing \
        -Xswiftc -sanitize=fuzzer --target "$1" > "$out/build-$1.log" 2>&1 || { tail -n 30 "$out/build-$1.log" >&2; exit 1; }
}

# The object files of modules built by `module` (C targets such as swift-crypto's BoringSSL keep theirs in
# subfolders).
objects() { for m in "$@"; do find "$modules/$m.build" -name '*.o' | sort; done; }

c_modules=(-I "$modules/Modules" -I Sources/CPNG -I Sources/CTurboJPEG -I "$spm/checkouts/swift-system/Sources/CSystem/include")
for flag in $(pkg-config --cflags-only-I libpng libturbojpeg 2>/dev/null); do c_modules+=(-Xcc "$flag"); done

build() {
    local target=$1 harness libs=() links=()
    case $target in
    pass-parser | config)
        module KioskCore
        harness=("Fuzz/$([[ $target == config ]] && echo ConfigParser || echo PassParser)Fuzz.swift")
        libs=($(objects KioskCore SignedRecords GrayImage BoundedNumbers PassFormat)) ;;
    roster-csv)
        module KioskCSV
        harness=(Fuzz/RosterCSVFuzz.swift); libs=($(objects KioskCSV CSVReading KioskCore SignedRecords GrayImage BoundedNumbers PassFormat)) ;;
    roster-page | upload-json | device-bodies)
        # WireAPI is plain Swift without dependencies: built once for the three (the module build instruments
        # every line of the readers for the fuzzer), each harness linked against it.
        module WireAPI
        local name
        case $target in
        roster-page) name=RosterPage ;; upload-json) name=UploadJSON ;; *) name=DeviceBodies ;;
        esac
        harness=("Fuzz/${name}Fuzz.swift"); libs=($(objects WireAPI)) ;;
    guest-csv)
        module CheckinCore
        harness=(Fuzz/GuestCSVFuzz.swift); libs=($(objects CheckinCore CSVReading PassFormat EntryRules)) ;;
    request-edge)
        module CheckinWebhooks
        module WireAPI
        harness=(Fuzz/RequestEdgeFuzz.swift)
        libs=($(objects WireAPI CheckinWebhooks BoundedNumbers Cryptography SystemCalls SystemPackage CSystem PassFormat \
            Crypto CryptoBoringWrapper CCryptoBoringSSL CCryptoBoringSSLShims CXKCP CXKCPShims SwiftASN1)) ;;
    peer-message)
        # The NIO-free files of KioskPeers (the message and the announcement's reading) compiled into the harness.
        module KioskCore
        harness=(Fuzz/PeerMessageFuzz.swift Sources/KioskPeers/PeerMessage.swift Sources/KioskPeers/PeerError.swift
            Sources/KioskPeers/PeerAnnouncement+Datagram.swift)
        libs=($(objects KioskCore SignedRecords GrayImage BoundedNumbers PassFormat)) ;;
    png | jpeg | pgm)
        module ImageFiles
        local upper; upper=$(tr '[:lower:]' '[:upper:]' <<< "$target")
        harness=(Fuzz/ImageDecodeFuzz.swift "Fuzz/${upper}DecodeFuzz.swift")
        mkdir -p "$lib"
        if [[ ! -f $lib/FuzzOutcome.o || Fuzz/FuzzOutcome.c -nt $lib/FuzzOutcome.o ]]; then
            "$(dirname "$(command -v swiftc)")/clang" -O1 -c Fuzz/FuzzOutcome.c -o "$lib/FuzzOutcome.o"
        fi
        libs=($(objects ImageFiles SystemCalls SystemPackage CSystem GrayImage) "$lib/FuzzOutcome.o")
        links=(-lpng16 -lturbojpeg) ;;
    *) echo "unknown target '$target'; the targets are: ${targets[*]}" >&2; exit 2 ;;
    esac
    mkdir -p "$out/bin"
    cached "$target-fuzz" -- "${swiftc_flags[@]}" "${c_modules[@]}" "${harness[@]}" "${libs[@]}" \
        "${links[@]}" -o "$out/bin/$target-fuzz"
}

# Fuzzes one target for SECONDS, or, given RUNS, for RUNS inputs from a fixed seed with a fresh corpus (the
# committed seeds alone, so the run depends on the commit only); returns non-zero (and names the
# reproducer) when libFuzzer found a crash.
# Usage: run TARGET SECONDS [RUNS]
run() {
    local target=$1 seconds=$2 runs_wanted=${3:-} dir=$out/$1
    local corpus=$dir/corpus budget=(-max_total_time="$seconds")
    if [[ -n $runs_wanted ]]; then
        corpus=$dir/ci-corpus
        rm -rf "$corpus"
        budget=(-runs="$runs_wanted" -seed=1)
    fi
    mkdir -p "$corpus" "$dir/crashes"
    local before; before=$(ls "$dir/crashes" | wc -l)
    local status=0
    # Swift's own crash handler would read memory ASan guards and bury the report: ASan reports alone.
    # Deterministic hashing keeps Set and Dictionary orders, and so coverage, the same from run to run.
    SWIFT_BACKTRACE=enable=no SWIFT_DETERMINISTIC_HASHING=1 "$out/bin/$target-fuzz" "$corpus" "Fuzz/corpus/$target" \
        "${budget[@]}" -max_len=8192 -keep_seed=1 -timeout=10 -artifact_prefix="$dir/crashes/" \
        -print_final_stats=1 > "$dir/log" 2>&1 || status=$?
    local runs; runs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$dir/log" | grep -oE '[0-9]+$' || echo "?")
    local cov; cov=$(grep -oE 'cov: [0-9]+' "$dir/log" | tail -n 1 || true)
    if [[ $status -ne 0 ]] || [[ $(ls "$dir/crashes" | wc -l) -ne $before ]]; then
        grep -E 'ERROR|SUMMARY|Fatal error|panic|==[0-9]+==' "$dir/log" | head -n 8 || true
        echo "FAIL $target: libFuzzer exit $status after $runs runs; full log: $dir/log"
        for f in $(ls -t "$dir/crashes" | head -n 3); do
            echo "  reproducer: $dir/crashes/$f   (replay: $out/bin/$target-fuzz $dir/crashes/$f)"
        done
        return 1
    fi
    local took; took=$(grep -oE 'stat::.*|Done [0-9]+ runs in [0-9]+ second' "$dir/log" | grep -oE 'in [0-9]+ second' | tail -n 1 || true)
    echo "ok   $target: $runs runs${took:+ ${took}s}${runs_wanted:+ (seed 1)}, $cov, corpus $(ls "$corpus" | wc -l) inputs"
}

case ${1:-} in
list) for t in "${targets[@]}"; do printf '%-12s %s\n' "$t" "$(describe "$t")"; done ;;
build)
    for t in ${2:-${targets[@]}}; do build "$t"; done ;;
all | ci)
    started=$SECONDS
    for t in "${targets[@]}"; do build "$t"; done
    echo "fuzz targets built in $((SECONDS - started)) s"
    seconds=${2:-15} runs=
    if [[ $1 == ci ]]; then seconds=0 runs=${2:-60000}; fi
    failed=()
    for t in "${targets[@]}"; do run "$t" "$seconds" $runs || failed+=("$t"); done
    echo "fuzzing took $((SECONDS - started)) s in all (building included)"
    if [[ ${#failed[@]} -gt 0 ]]; then echo "crashes in: ${failed[*]}"; exit 1; fi ;;
'' | -h | --help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 2 ;;
*)
    if [[ $1 =~ ^[0-9]+$ ]]; then set -- pass-parser "$1"; fi
    describe "$1" > /dev/null || { echo "unknown target '$1'; the targets are: ${targets[*]}" >&2; exit 2; }
    build "$1"
    run "$1" "${2:-60}" ;;
esac
