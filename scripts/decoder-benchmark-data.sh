#!/usr/bin/env bash
# Builds the decoder benchmark's copy of public QR photo sets (kiosk-bench decoder --data OUT_DIR).
#
#   scripts/decoder-benchmark-data.sh QR_CODE_VECTORS ZXING_CPP ZXING OUT_DIR
#
# Each argument but the last is the path of a local clone (a work tree), or - to leave that set out:
#   QR_CODE_VECTORS  github.com/paulmillr/qr-code-vectors: boofcv-v3/detection/<category>/ is the BoofCV QR
#                    benchmark (qrcodes_v3): 16 categories of photos, each image with a .txt of its codes'
#                    corners (4 points per code, no payload).
#   ZXING_CPP        github.com/zxing-cpp/zxing-cpp: test/samples/qrcode-*/, each image with a .txt of its
#                    payload (.webp images are converted to PNG with Debian's dwebp, package webp).
#   ZXING            github.com/zxing/zxing: core/src/test/resources/blackbox/qrcode-*/, each image with a .txt.
# OUT_DIR gets the images (copied, never committed) and manifest.tsv: one line per image,
#   set <TAB> category <TAB> image path under OUT_DIR <TAB> expected [<TAB> places]
# where expected is the comma-separated lowercase hex of each code's payload as its .txt holds it, ? for a code
# whose payload the set does not give (BoofCV), and empty for an image with no code; places (BoofCV) is each
# code's four labelled corners in the photo's pixels (x y, eight numbers), codes separated by ";", in the order of
# expected: the benchmark counts a code read where its centre lies in one (two codes of one payload are two).
set -euo pipefail
if [ $# -ne 4 ]; then
  sed -n 2,18p "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
vectors=$1 zxingcpp=$2 zxing=$3 out=$4
check() {
  [ "$1" = - ] || [ -d "$1/$2" ] || {
    echo "error: $1 has no $2: give the path of a clone of $3 (or - to leave the set out)" >&2
    exit 2
  }
}
check "$vectors" boofcv-v3/detection paulmillr/qr-code-vectors
check "$zxingcpp" test/samples zxing-cpp/zxing-cpp
check "$zxing" core/src/test/resources/blackbox zxing/zxing
if [ "$zxingcpp" != - ] && ! command -v dwebp >/dev/null; then
  echo "error: zxing-cpp's samples are WebP: install Debian's webp package (dwebp) first" >&2
  exit 2
fi
mkdir -p "$out"
exec python3 - "$vectors" "$zxingcpp" "$zxing" "$out" <<'PY'
import os, shutil, subprocess, sys
from collections import Counter

vectors, zxingcpp, zxing, out = sys.argv[1:5]
lines, counts, skipped = [], Counter(), Counter()

def place(src, set_name, category, name):
    folder = os.path.join(out, set_name, category)
    os.makedirs(folder, exist_ok=True)
    stem, ext = os.path.splitext(name)
    if ext.lower() == ".webp":
        dest = os.path.join(folder, stem + ".png")
        subprocess.run(["dwebp", "-quiet", src, "-o", dest], check=True)
    else:
        dest = os.path.join(folder, name)
        shutil.copyfile(src, dest)
    return os.path.relpath(dest, out)

def add(set_name, category, path, expected, places=None):
    line = f"{set_name}\t{category}\t{path}\t{','.join(expected)}"
    if places:
        line += "\t" + ";".join(" ".join(numbers) for numbers in places)
    lines.append(line)
    counts[(set_name, category, "images")] += 1
    counts[(set_name, category, "codes")] += len(expected)

def boofcv(root):
    base = os.path.join(root, "boofcv-v3", "detection")
    shutil.rmtree(os.path.join(out, "boofcv"), ignore_errors=True)
    for category in sorted(os.listdir(base)):
        folder = os.path.join(base, category)
        for name in sorted(os.listdir(folder)):
            stem, ext = os.path.splitext(name)
            if ext.lower() not in (".jpg", ".jpeg", ".png"):
                continue
            label = os.path.join(folder, stem + ".txt")
            if not os.path.exists(label):
                skipped["boofcv image without a label"] += 1
                continue
            rows = [l.split() for l in open(label, encoding="utf-8", errors="replace")
                    if l.strip() and not l.lstrip().startswith("#")]
            # Either one point (x y) per line, 4 lines per code, or "SETS" and then one code (8 numbers) per line.
            if rows and rows[0] == ["SETS"]:
                codes = [r for r in rows[1:] if len(r) == 8]
                bad = len(codes) != len(rows) - 1
            else:
                codes = [sum(rows[i:i + 4], []) for i in range(0, len(rows), 4)]
                bad = len(rows) % 4 != 0 or any(len(r) != 2 for r in rows)
            if bad or not codes:
                skipped["boofcv label of neither corner format"] += 1
                continue
            add("boofcv", category, place(os.path.join(folder, name), "boofcv", category, name),
                ["?"] * len(codes), codes)

def samples(root, sub, set_name):
    base = os.path.join(root, sub)
    shutil.rmtree(os.path.join(out, set_name), ignore_errors=True)
    for category in sorted(d for d in os.listdir(base) if d.startswith("qrcode-")):
        folder = os.path.join(base, category)
        for name in sorted(os.listdir(folder)):
            stem, ext = os.path.splitext(name)
            if ext.lower() not in (".jpg", ".jpeg", ".png", ".webp", ".gif", ".bmp"):
                continue
            if ext.lower() in (".gif", ".bmp"):
                skipped[f"{set_name} {ext} image"] += 1
                continue
            binary, text = os.path.join(folder, stem + ".bin"), os.path.join(folder, stem + ".txt")
            if os.path.exists(binary):
                expected = [open(binary, "rb").read().hex()]
            elif os.path.exists(text):
                expected = [open(text, "rb").read().hex()]
            else:
                expected = ["?"]  # only a .result.txt (its content is not the payload)
                counts[(set_name, category, "unknown payloads")] += 1
            add(set_name, category, place(os.path.join(folder, name), set_name, category, name), expected)

if vectors != "-": boofcv(vectors)
if zxingcpp != "-": samples(zxingcpp, "test/samples", "zxing-cpp")
if zxing != "-": samples(zxing, "core/src/test/resources/blackbox", "zxing")

with open(os.path.join(out, "manifest.tsv"), "w", encoding="utf-8") as f:
    f.write("# set\tcategory\timage\texpected payloads (hex, ? unknown, empty: no code)\n")
    f.write("\n".join(lines) + "\n")
print(f"{'set':<10} {'category':<14} {'images':>6} {'codes':>6}")
for key in sorted({(s, c) for s, c, _ in counts}):
    print(f"{key[0]:<10} {key[1]:<14} {counts[key + ('images',)]:>6} {counts[key + ('codes',)]:>6}"
          + (f"  ({counts[key + ('unknown payloads',)]} without a payload file)" if counts[key + ('unknown payloads',)] else ""))
for reason, n in skipped.items():
    print(f"skipped: {n} {reason}")
print(f"{len(lines)} images: {os.path.join(out, 'manifest.tsv')}")
PY
