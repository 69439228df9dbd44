#!/usr/bin/env bash
# copy-modules.sh KERNEL_ROOT KERNEL_VERSION DEST MODULE...
# Copies the named kernel modules, with the modules each depends on, from the unpacked kernel package into
# DEST/lib/modules/VERSION, and indexes them there (depmod), so modprobe and udev find them.
set -euo pipefail
KROOT=$1 KV=$2 DEST=$3
shift 3
MD=$KROOT/lib/modules/$KV
declare -A seen
add_module() {
  local m=$1 line f
  [ -n "${seen[$m]:-}" ] && return 0
  seen[$m]=1
  line=$(grep -E "/(${m}|${m//_/-}|${m//-/_})\.ko(\.xz)?:" "$MD/modules.dep" | head -1)
  [ -n "$line" ] || { echo "kernel module $m not found" >&2; return 1; }
  for f in ${line%%:*} ${line#*:}; do
    mkdir -p "$DEST/lib/modules/$KV/$(dirname "$f")"
    cp "$MD/$f" "$DEST/lib/modules/$KV/$f"
  done
}
for m in "$@"; do add_module "$m"; done
cp "$MD"/modules.{builtin,order,builtin.modinfo} "$DEST/lib/modules/$KV/"
depmod -b "$DEST" "$KV"
