#!/usr/bin/env bash
# Fetches axe-core (the accessibility rules engine the browser test runs on every organizer page) as PyPI's
# axe-selenium-python 2.1.6 ships it (axe-core 3.1.1), checked against its published SHA-256, into
# .build/axe/axe.min.js. Nothing is installed system-wide; does nothing when the file is already there.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/axe/axe.min.js
[ -s "$out" ] && exit 0
url=https://files.pythonhosted.org/packages/1e/d7/55a73c357e6177815eea46e4c32291ba4ee7a57414f5b4d6937c53f13225/axe_selenium_python-2.1.6-py2.py3-none-any.whl
sha=21d10014c0bc3c999c1bfab54b9ef6a5d67f200ffca3db3629e0b315b3f1f136
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for attempt in 1 2 3; do
    curl -sfL --max-time 60 -o "$work/axe.whl" "$url" && break
    [ "$attempt" = 3 ] && { echo "error: cannot download $url (needed for the accessibility check)" >&2; exit 1; }
done
echo "$sha  $work/axe.whl" | sha256sum -c --quiet - || { echo "error: $url has the wrong SHA-256" >&2; exit 1; }
python3 - "$work/axe.whl" "$work/axe.min.js" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    open(sys.argv[2], "wb").write(wheel.read("axe_selenium_python/node_modules/axe-core/axe.min.js"))
PY
mkdir -p "$(dirname "$out")"
mv "$work/axe.min.js" "$out"
