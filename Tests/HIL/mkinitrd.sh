#!/usr/bin/env bash
# mkinitrd.sh KERNEL_ROOT KERNEL_VERSION OUT STAGE
# Builds the guest's initramfs: busybox, the kernel modules the test loads (with their dependencies), the
# programs listed in STAGE/programs (each "host-path guest-path", copied with the libraries ldd lists) and
# everything under STAGE/root.
set -euo pipefail
KROOT=$1 KV=$2 OUT=$3 STAGE=$4
ST=$(mktemp -d)
trap 'rm -rf "$ST"' EXIT
mkdir -p "$ST"/{bin,dev,proc,sys,tmp,etc}
cp /bin/busybox "$ST/bin/busybox"
ln -s busybox "$ST/bin/sh"
MD=$KROOT/lib/modules/$KV
declare -A seen
add_module() {
  local m=$1 line f
  [ -n "${seen[$m]:-}" ] && return 0
  seen[$m]=1
  line=$(grep -E "/(${m}|${m//_/-}|${m//-/_})\.ko(\.xz)?:" "$MD/modules.dep" | head -1)
  [ -n "$line" ] || { echo "kernel module $m not found" >&2; return 1; }
  for f in ${line%%:*} ${line#*:}; do
    mkdir -p "$ST/lib/modules/$KV/$(dirname "$f")"
    cp "$MD/$f" "$ST/lib/modules/$KV/$f"
  done
}
# vivid (camera), bochs (framebuffer), and Intel HDA with its generic codec: QEMU's sound card, which records
# what the kiosk plays into a WAV file.
for m in vivid bochs snd-hda-intel snd-hda-codec-generic; do add_module "$m"; done
cp "$MD"/modules.{builtin,order,builtin.modinfo} "$ST/lib/modules/$KV/"
depmod -b "$ST" "$KV"
copy_program() {
  mkdir -p "$ST/$(dirname "$2")"
  cp -L "$1" "$ST/$2"
  for lib in $(ldd "$1" 2>/dev/null | grep -oE '/[^ ]+'); do
    mkdir -p "$ST/$(dirname "$lib")"
    cp -L "$lib" "$ST/$lib"
  done
}
while read -r src dst; do [ -n "$src" ] && copy_program "$src" "$dst"; done < "$STAGE/programs"
cp -a "$STAGE/root/." "$ST/"
cp "$(dirname "$0")/init" "$ST/init"
chmod +x "$ST/init"
(cd "$ST" && find . | cpio -o -H newc --quiet) | gzip -1 > "$OUT"
