#!/usr/bin/env python3
"""Does `kioskctl decode` print the text the public sets' labels hold (what zxing-cpp prints)?

    scripts/decoder-exact-text.py KIOSKCTL SAMPLES

SAMPLES is a folder of image files each with a .txt beside it holding the code's text (zxing-cpp's
test/samples/qrcode-*/ of a clone of github.com/zxing-cpp/zxing-cpp; .webp images are converted with Debian's
dwebp, package webp). Each image is decoded by its own `kioskctl decode` process; the count of exact texts,
different texts and images read not at all is printed, with the first differences.
"""
import os
import shutil
import subprocess
import sys
import tempfile

if len(sys.argv) != 3:
    sys.exit(__doc__)
kioskctl, samples = sys.argv[1], sys.argv[2]
exact = different = unread = 0
differences = []
with tempfile.TemporaryDirectory() as scratch:
    for folder, _, files in sorted(os.walk(samples)):
        for name in sorted(files):
            stem, extension = os.path.splitext(name)
            label = os.path.join(folder, stem + ".txt")
            if extension not in (".png", ".jpg", ".webp") or not os.path.exists(label):
                continue
            image = os.path.join(folder, name)
            if extension == ".webp":
                if not shutil.which("dwebp"):
                    sys.exit("error: WebP images need dwebp: apt install webp")
                converted = os.path.join(scratch, stem + ".png")
                subprocess.run(["dwebp", "-quiet", image, "-o", converted], check=True)
                image = converted
            want = open(label, "rb").read()
            out = subprocess.run([kioskctl, "decode", image], capture_output=True).stdout
            if not out.startswith(b"QR-Code:"):
                unread += 1
                continue
            got = out[len(b"QR-Code:"):]
            got = got[:-1] if got.endswith(b"\n") else got
            if got in (want, want.rstrip(b"\n")):
                exact += 1
            else:
                different += 1
                differences.append(f"{os.path.relpath(os.path.join(folder, name), samples)}: want {want[:40]!r}, got {got[:40]!r}")
print(f"exact {exact}, different {different}, not read {unread}")
for line in differences[:20]:
    print("  " + line)
