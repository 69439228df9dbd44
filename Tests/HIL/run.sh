#!/usr/bin/env bash
# Hardware-in-the-loop test: the kiosk binary on Debian's own kernel in QEMU, capturing from the real vivid
# V4L2 driver and drawing on a real framebuffer (bochs-drm). Installs what it needs. Screenshots and logs go
# to out/hil/. About 3-5 minutes on 2 cores (software emulation).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
OUT=$ROOT/out/hil
CACHE=$ROOT/.build-hil
STAGE=$CACHE/stage
rm -rf "$OUT" "$STAGE"
mkdir -p "$OUT" "$CACHE/kernel-cache" "$STAGE/root/kiosk" "$STAGE/root/frames"

source scripts/install-deps.sh
need=()
for p in qemu-system-x86 busybox-static v4l-utils cpio kmod python3 alsa-utils; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

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

# The kiosk, built with the Swift runtime linked in (the guest has only what ldd lists): the release build that
# the Debian packages ship too (scripts/release-build.sh), or HIL_BIN's (.ci/run: the tests' debug build, whose
# executables carry the runtime too and whose pixel modules are optimized).
BIN=${HIL_BIN:-$(scripts/release-build.sh kiosk kioskctl)}
# HIL_BUILD_ONLY=1: stop here (.ci/run builds first, beside the fuzz step, then runs the test).
[ "${HIL_BUILD_ONLY:-0}" = 1 ] && exit 0
printf '%s %s\n' "$BIN/kiosk" /usr/bin/kiosk "$BIN/kioskctl" /usr/bin/kioskctl "$(command -v v4l2-ctl)" /usr/bin/v4l2-ctl \
  "$(command -v amixer)" /usr/bin/amixer \
  > "$STAGE/programs"

# The door: the test-images event, its roster in SQLite, the fonts, and the frames to stream.
cat > "$STAGE/root/kiosk/kiosk.conf" <<CONF
door = HIL door
tenant = 7
event = 4711
trusted_key = 1 /kiosk/issuer-1.pub.pem
database = /kiosk/kiosk.db
database_key_file = /kiosk-key/kiosk-db.key
source = camera:/dev/kiosk-camera
capture_size = 640x480
display = framebuffer
repeat_window = 2s
verdict_seconds = 10
idle_fps = 15
active_fps = 30
log_level = info
sound = auto
sound_device = plughw:0,0
sound_volume = 80
CONF
# libasound's own configuration, which defines plughw.
mkdir -p "$STAGE/root/usr/share"
cp -a /usr/share/alsa "$STAGE/root/usr/share/alsa"
cp test-images/keys/issuer-1.pub.pem "$STAGE/root/kiosk/"
sed 's#database = /kiosk/kiosk.db#database = '"$STAGE"'/root/kiosk/kiosk.db#; s#/kiosk-key/#'"$STAGE"'/root/kiosk-key/#; s#trusted_key = 1 /kiosk/#trusted_key = 1 '"$STAGE"'/root/kiosk/#' \
  "$STAGE/root/kiosk/kiosk.conf" > "$STAGE/host.conf"
"$BIN/kioskctl" roster import --config "$STAGE/host.conf" --csv test-images/roster.csv >&2
rm -f "$STAGE/root/kiosk/kiosk.db-wal" "$STAGE/root/kiosk/kiosk.db-shm"
for f in /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf; do
  mkdir -p "$STAGE/root$(dirname "$f")"
  cp "$f" "$STAGE/root$f"
done
python3 - "$STAGE" <<'PY'
import base64, json, sys
sys.path.insert(0, "Tests/HIL")
from vm import read_grey_png
stage = sys.argv[1]
manifest = {e["file"]: e for e in json.load(open("test-images/manifest.json"))["entries"]}
def guest_of(url):
    token = url.rsplit("/", 1)[1]
    raw = base64.b32decode(token + "=" * (-len(token) % 8))
    return base64.b32encode(raw[11:21]).decode()
frames = {"admitted": "001-valid.png", "forged": "005-forged-signature.png", "empty": "009-no-code.png",
          "second": "024-rotated-480p.png"}
guests = []
for name, file in frames.items():
    w, h, pixels = read_grey_png("test-images/" + file)
    assert (w, h) == (640, 480), file
    open(f"{stage}/root/frames/{name}.raw", "wb").write(pixels)
    if name in ("admitted", "second"):
        guests.append(f"{name}={guest_of(manifest[file]['codes'][0])}")
open(f"{stage}/guests.txt", "w").write("\n".join(guests) + "\n")
PY

Tests/HIL/mkinitrd.sh "$CACHE/kernel" "$KV" "$CACHE/initrd.gz" "$STAGE"
python3 Tests/HIL/hil.py "$STAGE" "$CACHE/kernel/boot/vmlinuz-$KV" "$CACHE/initrd.gz" "$OUT"
