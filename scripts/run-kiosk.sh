#!/usr/bin/env bash
# The whole system on its embedded defaults, on this machine:
#   1. a demo event made on the spot (`kiosk-demo`: fresh keys, a roster of 300 guests, passes rendered as
#      door images, conditions from clean to hard);
#   2. `checkin-server` on its SQLite default, over HTTPS with a CA made on the spot, holding that event and
#      its roster;
#   3. two kiosks, North and South, each enrolled with a one-time code (`kioskctl enroll`, which downloads the
#      roster), each replaying half of the door images with its camera replaced (verdicts as JSON lines on
#      standard output, prefixed with the door; the text status display on standard error);
#   4. both doors' queues uploaded (`kioskctl sync`) and the server's record of the event printed.
# It checks itself: every check-in the doors made must be on the server exactly once (exit 1 otherwise).
# Everything lives in .demo (the door images) and .demo-system (server and kiosks); both are made anew.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
source scripts/install-deps.sh
# One build invocation for every product: each dependency (BoringSSL, NIO, GRDB...) is compiled once. A debug
# build without debug information, the one scripts/test.sh makes (so the tests reuse it): from scratch on 2 cores
# about 5.5 minutes, where the optimized build takes 10 (the demo's doors decide in time either way).
# KIOSK_BUILD=release for the optimized binaries, the ones to install at a door.
config=${KIOSK_BUILD:-debug}
case "$config" in
  debug | release) ;;
  *) echo "error: KIOSK_BUILD is '$config': use debug (the default) or release" >&2; exit 2 ;;
esac
build=(swift build -c "$config")
[ "$config" = debug ] && build+=(-debug-info-format none)
"${build[@]}" >&2
bin=$("${build[@]}" --show-bin-path)

"$bin/kiosk-demo" --dir .demo --tenant 1 --event 1 >&2

sys=$root/.demo-system
rm -rf "$sys"
mkdir -p "$sys/server"
server_db=$sys/server/checkin.db
admin() { "$bin/checkin-server" "$@" --database "$server_db"; }

# TLS: a CA made on the spot signs the server's certificate; the kiosks trust that CA only.
(
  cd "$sys/server"
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' > san.ext
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 2 \
    -subj /CN=demo-ca
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
    -subj /CN=localhost
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile san.ext
) >/dev/null 2>&1

# The organizer's side: tenant 1, event 1 (the demo's passes are signed for them), the roster.
tenant=$(admin create-tenant --name "Demo organizer")
event=$(admin create-event --tenant "$tenant" --name "Demo gala" --venue "Demo hall" \
  --starts "$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%SZ)" --ends "$(date -u -d '+1 day' +%Y-%m-%dT%H:%M:%SZ)")
admin import-guests --event "$event" --csv .demo/roster.csv >&2

# The server, on a loopback port the system chooses (port 0): it writes the port to a file once it listens.
server_pid=""
kiosk_cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; true; }
trap kiosk_cleanup EXIT
port_file=$sys/server/port
(cd "$sys/server" && exec "$bin/checkin-server" serve --database "$server_db" --port 0 --port-file "$port_file" \
  --tls-certificate server.pem --tls-key server.key) >"$sys/server/serve.log" 2>&1 &
server_pid=$!
port=""
for _ in $(seq 1 600); do  # up to 60 s on a loaded machine
  if [ -s "$port_file" ]; then port=$(cat "$port_file"); break; fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
[ -n "$port" ] || { echo "error: checkin-server did not start; see $sys/server/serve.log" >&2; exit 1; }
url=https://localhost:$port
echo "checkin-server: $url (SQLite: $server_db)" >&2

# Two doors, each with half of the door images (alternately, in name order), enrolled with a one-time code.
images=(.demo/images/*)
for door in North South; do
  mkdir -p "$sys/$door/images"
  cp "$sys/server/ca.pem" "$sys/$door/ca.pem"
  sed -e "s|^door = .*|door = $door|" -e "s|^database = .*|database = kiosk.db|" \
    -e "s|^trusted_key = \([0-9]*\) |trusted_key = \1 $root/.demo/|" -e "/^source = /d" .demo/kiosk.conf \
    > "$sys/$door/kiosk.conf"
  printf 'server = %s\nserver_ca = ca.pem\n' "$url" >> "$sys/$door/kiosk.conf"
  code=$(admin enrolment-code --event "$event" 2>/dev/null)
  "$bin/kioskctl" enroll --config "$sys/$door/kiosk.conf" --server "$url" --code "$code" --ca-file "$sys/$door/ca.pem" >/dev/null
done
for i in "${!images[@]}"; do
  if [ $((i % 2)) = 0 ]; then door=North; else door=South; fi
  cp "${images[$i]}" "$sys/$door/images/"
done

# The doors decide offline (the replay never waits for the network); each check-in is queued durably.
declare -A made
for door in North South; do
  "$bin/kiosk" --config "$sys/$door/kiosk.conf" --replay "$sys/$door/images" | sed "s/^/$door: /"
  made[$door]=$("$bin/kioskctl" status --config "$sys/$door/kiosk.conf" | sed -n '1s/.*: .* guests, \([0-9]*\) checked in.*/\1/p')
done

# Back online: each door uploads its queue in scan order, batches of 50, and brings its roster up to date.
for door in North South; do
  echo "$door: $("$bin/kioskctl" sync --config "$sys/$door/kiosk.conf" | tr '\n' ' ')" >&2
done

# The server's record: one check-in per guest, whichever door (the earliest scan), and every scan as a check-in
# event; a guest let in at both doors while they were offline is one check-in and one superseded scan.
admin export --event "$event" > "$sys/export.jsonl"
count() { grep -c "$1" "$sys/export.jsonl" || true; }
checkins=$(count '"record":"check_in"')
# A superseded scan is one check_in_event line; the double-entry report repeats it as a double_entry line.
superseded=$(grep '"record":"check_in_event"' "$sys/export.jsonl" | grep -c '"outcome":"superseded"' || true)
pending=0
for door in North South; do
  p=$("$bin/kioskctl" status --config "$sys/$door/kiosk.conf" | sed -n '1s/.* \([0-9]*\) pending sync.*/\1/p')
  pending=$((pending + p))
  echo "server: $door made ${made[$door]} check-ins; $(grep '"record":"check_in"' "$sys/export.jsonl" | grep -c "\"door\":\"$door\"" || true) are the guest's check-in on the server" >&2
done
echo "server: $checkins check-ins and $superseded superseded scans for $((made[North] + made[South])) made at the doors, $pending still queued; every record in $sys/export.jsonl" >&2
if [ "$pending" != 0 ] || [ $((checkins + superseded)) != $((made[North] + made[South])) ]; then
  echo "error: the server does not hold each door's check-ins exactly once" >&2
  exit 1
fi
