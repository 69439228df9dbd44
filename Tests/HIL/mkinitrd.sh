#!/usr/bin/env bash
# mkinitrd.sh KERNEL_ROOT KERNEL_VERSION OUT
# Builds the guest's initramfs: busybox, the kernel modules that mount the root disk (virtio, ext4, with their
# dependencies) and Tests/HIL/init, which switches to the Debian root's systemd.
set -euo pipefail
KROOT=$1 KV=$2 OUT=$3
ST=$(mktemp -d)
trap 'rm -rf "$ST"' EXIT
mkdir -p "$ST"/{bin,dev,proc,sys,newroot}
cp /bin/busybox "$ST/bin/busybox"
ln -s busybox "$ST/bin/sh"
"$(dirname "$0")/copy-modules.sh" "$KROOT" "$KV" "$ST" virtio_pci virtio_blk crc32c_generic ext4
cp "$(dirname "$0")/init" "$ST/init"
chmod +x "$ST/init"
(cd "$ST" && find . | cpio -o -H newc --quiet) | gzip -1 > "$OUT"
