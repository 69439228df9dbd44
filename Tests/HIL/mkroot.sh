#!/usr/bin/env bash
# mkroot.sh CACHE KERNEL_ROOT KERNEL_VERSION STAGE IMAGE
# The HIL guest's disk: a Debian 12 root with systemd as init and udev, made by mmdebstrap from the mirror apt uses
# here (cached in CACHE as a tarball, keyed by its package list), plus:
#   - the packages' runtime dependencies (read from the .deb files in STAGE/root/hil/debs), so that the test
#     installs the packages themselves in the booted guest with no network;
#   - v4l-utils (to write frames into vivid), alsa-utils (the mixer) and curl (/readyz);
#   - the kernel modules the guest's udev loads (vivid, bochs, the Intel HDA sound card) from KERNEL_ROOT;
#   - the test rig (Tests/HIL/guest: the serial console's shell service, the rule that makes vivid look like a
#     USB webcam, the kiosk unit's fault drop-in) and everything under STAGE/root;
# written into IMAGE, a sparse ext4 file system (mkfs.ext4 -d), made anew on every run. From scratch, mmdebstrap
# takes about 80 s here; then a run takes about 10 s.
set -euo pipefail
CACHE=$1 KROOT=$2 KV=$3 STAGE=$4 IMAGE=$5
here=$(cd "$(dirname "$0")" && pwd)
debs=("$STAGE"/root/hil/debs/*.deb)
[ -e "${debs[0]}" ] || { echo "mkroot: no .deb files in $STAGE/root/hil/debs" >&2; exit 1; }
# The packages' Depends, names only (the versions are the mirror's), first of each alternative.
deps=$(for d in "${debs[@]}"; do dpkg-deb -f "$d" Depends; echo ,; done | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g' |
    grep . | sort -u | tr '\n' ',')
include="${deps}systemd-sysv,udev,kmod,v4l-utils,alsa-utils,curl"
key=$(printf "%s\n" "$include" | sha256sum | cut -c1-16)
tarball=$CACHE/bookworm-systemd-$key.tar
if [ ! -s "$tarball" ]; then
    echo "mkroot: making the Debian 12 root with systemd (mmdebstrap, once per package list)" >&2
    mirror=/etc/apt/sources.list.d/debian.sources
    [ -f "$mirror" ] || mirror=/etc/apt/sources.list
    rm -f "$CACHE"/bookworm-systemd-*.tar
    mmdebstrap --variant=minbase --format=tar --quiet --include="$include" bookworm "$tarball.part" "$mirror" >&2
    mv "$tarball.part" "$tarball"
fi
# MKROOT_TARBALL_ONLY=1: stop once the cached root is there (.ci/run makes it beside the tests).
[ "${MKROOT_TARBALL_ONLY:-0}" = 1 ] && exit 0
R=$STAGE/rootfs
rm -rf "$R"
mkdir -p "$R"
tar -C "$R" -xf "$tarball"
"$here/copy-modules.sh" "$KROOT" "$KV" "$R" vivid bochs snd-hda-intel snd-hda-codec-generic
cp -a "$STAGE/root/." "$R/"
install -d "$R/hil"
install -m 0755 "$here/guest/console" "$here/guest/vivid-loopback.sh" "$R/hil/"
install -m 0644 "$here/guest/hil-console.service" "$R/etc/systemd/system/"
ln -sf /etc/systemd/system/hil-console.service "$R/etc/systemd/system/multi-user.target.wants/hil-console.service"
install -m 0644 "$here/guest/60-hil-vivid.rules" "$R/etc/udev/rules.d/"
install -d "$R/etc/systemd/system/kiosk.service.d"
install -m 0644 "$here/guest/kiosk-fault.conf" "$R/etc/systemd/system/kiosk.service.d/hil-fault.conf"
# The serial console is the test's; timers that would wake apt or scrub the disk mid-test are masked.
for unit in serial-getty@ttyS0.service apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer; do
    ln -sf /dev/null "$R/etc/systemd/system/$unit"
done
echo "/dev/vda / ext4 rw,noatime 0 0" > "$R/etc/fstab"
echo hil-door > "$R/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 hil-door\n' > "$R/etc/hosts"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' > "$R/etc/machine-id"
echo >> "$R/etc/machine-id"
rm -f "$IMAGE"
mkfs.ext4 -q -F -L hil-root -d "$R" "$IMAGE" 3G
rm -rf "$R"
