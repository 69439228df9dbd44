#!/usr/bin/env bash
# The release build that ships: PRODUCT... built with the Swift runtime linked in (-static-stdlib), so a binary
# needs only Debian's own libraries (the Debian packages, scripts/build-debs.sh, and the hardware-in-the-loop
# guest, Tests/HIL/run.sh, take them from here). Its own scratch folder, .build-release (RELEASE_SCRATCH);
# the packages the tests' build already fetched are copied in, not fetched again. Prints the binaries' folder.
#
#   scripts/release-build.sh kiosk kioskctl checkin-server
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=${RELEASE_SCRATCH:-$PWD/.build-release}
if [ -d .build/repositories ] && [ ! -d "$scratch/repositories" ]; then
    mkdir -p "$scratch" && cp -a .build/repositories "$scratch/repositories"
fi
for product in "$@"; do
    swift build -c release --scratch-path "$scratch" -Xswiftc -static-stdlib --product "$product" >&2
done
swift build -c release --scratch-path "$scratch" --show-bin-path
