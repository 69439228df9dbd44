#!/usr/bin/env bash
# Hardware-in-the-loop test: the Debian packages installed on a booted Debian 12 and the door driven through
# their units. QEMU boots Debian's own kernel into a Debian 12 root with systemd as init and udev running
# (Tests/HIL/mkroot.sh: mmdebstrap from the mirror apt uses here, cached in .build-hil). In the booted guest the
# test installs the kiosk and checkin-server packages, plugs vivid (a real V4L2 capture device whose input loops
# back what is written to its output), and checks, in Tests/HIL/hil.py:
#   - the package's udev rule names the camera /dev/kiosk-camera for the kiosk group;
#   - the kiosk unit starts as the kiosk user with Type=notify once enrolled with the server in the guest, whose
#     own unit answers /readyz; the door's verdicts on the framebuffer (bochs-drm, QMP screenshots) and out of
#     the sound card (QEMU's Intel HDA, recorded to a WAV file); the check-ins reach the server;
#   - systemctl reload applies a changed kiosk.conf (the capture rate follows) and refuses a broken one;
#   - the camera taken away and brought back; a SIGKILL loses no check-in; the watchdog restarts a kiosk whose
#     door loop is stalled (a fault seam of the debug build, KIOSK_FAULT_STALL_DOOR_LOOP);
#   - both units' sandboxes: `systemd-analyze security` scores kiosk.service at most 4.5 and checkin-server.service
#     at most 2.0 (issue 49), and every check above runs inside them. HIL_SYSCALL_LOG=1 lists the system calls
#     their filters would refuse instead of refusing them (a diagnosis, Tests/HIL/hil.py).
# The passes are a demo event's (kiosk-demo, tenant 1 and event 1, as the guest's server numbers them).
# HIL_BIN: the folder of kiosk, kioskctl and checkin-server (default: the debug build's, as scripts/test.sh makes
# it; .ci/run passes it). HIL_DEBS: a folder already holding that build's packages (.ci/run: the packages'
# test's); else they are built here. Screenshots and logs go to out/hil/. Root only (mmdebstrap, mkfs). About
# 5 minutes on 2 cores (software emulation).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=$ROOT/out/hil
CACHE=$ROOT/.build-hil
STAGE=$CACHE/stage
rm -rf "$OUT" "$STAGE"
mkdir -p "$OUT" "$CACHE/kernel-cache" "$STAGE/root/hil/debs" "$STAGE/root/hil/frames"

source scripts/install-deps.sh
scripts/apt-install.sh qemu-system-x86 busybox-static cpio kmod python3 mmdebstrap e2fsprogs

# Debian's kernel, unpacked (not installed).
KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
[ -n "$KPKG" ] || { apt-get update -qq; KPKG=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}'); }
KV=${KPKG#linux-image-}
if ! ls "$CACHE/kernel-cache/${KPKG}"_*.deb >/dev/null 2>&1; then
  (cd "$CACHE/kernel-cache" && apt-get download -qq -o APT::Sandbox::User=root "$KPKG")
fi
if [ ! -f "$CACHE/kernel/boot/vmlinuz-$KV" ]; then
  rm -rf "$CACHE/kernel"
  dpkg-deb -x "$(ls "$CACHE/kernel-cache/${KPKG}"_*.deb | head -1)" "$CACHE/kernel"
  depmod -b "$CACHE/kernel" "$KV"
fi

# The programs (their executables carry the Swift runtime, so the packages depend on Debian's libraries only).
if [ -n "${HIL_BIN:-}" ]; then
  BIN=$HIL_BIN
else
  swift build -debug-info-format none >&2
  BIN=$(swift build --show-bin-path -debug-info-format none)
fi
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/KioskSync/KioskVersion+Sync.swift)
arch=$(dpkg --print-architecture)
DEBS=${HIL_DEBS:-$CACHE/debs}
if [ -z "${HIL_DEBS:-}" ]; then
  rm -rf "$DEBS"
  DEB_BIN=$BIN DEB_OUT=$DEBS DEB_VERSION=$version DEB_COMPRESSION=gzip scripts/build-debs.sh >/dev/null
fi
for pkg in kiosk checkin-server; do
  cp "$DEBS/${pkg}_${version}_${arch}.deb" "$STAGE/root/hil/debs/" ||
    { echo "hil: no ${pkg}_${version}_${arch}.deb in $DEBS" >&2; exit 1; }
done

# HIL_PREPARE_ONLY=1: stop once the Debian root is made and cached (.ci/run does it beside the tests, where the
# mirror's downloads and dpkg's unpacking take little of the cores).
if [ "${HIL_PREPARE_ONLY:-0}" = 1 ]; then
  MKROOT_TARBALL_ONLY=1 Tests/HIL/mkroot.sh "$CACHE" "$CACHE/kernel" "$KV" "$STAGE" "$STAGE/root.img"
  exit 0
fi

# The event: a demo's keys, roster and door images (tenant 1, event 1: the first the guest's server makes).
"$BIN/kiosk-demo" --dir "$STAGE/demo" --tenant 1 --event 1 --guests 40 --seed 7 >&2
cp "$STAGE/demo/roster.csv" "$STAGE/demo/keys/issuer-1.pub.pem" "$STAGE/root/hil/"
python3 - "$STAGE" <<'PY'
import base64, json, sys
sys.path.insert(0, "Tests/HIL")
from vm import read_grey_png
stage = sys.argv[1]
manifest = {e["file"]: e for e in json.load(open(f"{stage}/demo/manifest.json"))["entries"]}
def guest_of(url):
    token = url.rsplit("/", 1)[1]
    raw = base64.b32decode(token + "=" * (-len(token) % 8))
    return base64.b32encode(raw[11:21]).decode()
frames = {"admitted": "001-valid.png", "forged": "005-forged-signature.png", "empty": "009-no-code.png",
          "second": "024-rotated-480p.png"}
guests = []
for name, file in frames.items():
    w, h, pixels = read_grey_png(f"{stage}/demo/images/{file}")
    assert (w, h) == (640, 480), file
    open(f"{stage}/root/hil/frames/{name}.raw", "wb").write(pixels)
    if name in ("admitted", "second"):
        guests.append(f"{name}={guest_of(manifest[file]['codes'][0])}")
open(f"{stage}/guests.txt", "w").write("\n".join(guests) + "\n")
PY

Tests/HIL/mkroot.sh "$CACHE" "$CACHE/kernel" "$KV" "$STAGE" "$STAGE/root.img"
Tests/HIL/mkinitrd.sh "$CACHE/kernel" "$KV" "$CACHE/initrd.gz"
python3 Tests/HIL/hil.py "$STAGE" "$CACHE/kernel/boot/vmlinuz-$KV" "$CACHE/initrd.gz" "$STAGE/root.img" "$OUT"
