#!/usr/bin/env bash
# The Debian packages, tested as a venue's IT person uses them: built by scripts/build-debs.sh, then in a fresh
# Debian 12 root (mmdebstrap --variant=minbase from the mirror apt uses here, cached in .build-deb) installed
# with apt (so the declared dependencies must be enough), used, upgraded, removed, reinstalled and purged:
#   - install: the users, folders, keys and units as the maintainer scripts make them; the binaries run;
#   - upgrade: the kiosk's queue, database, key and edited kiosk.conf, and the server's database, are kept;
#   - remove: the programs go, the data and settings stay (a reinstall reads the same queue);
#   - purge: the data, settings and keys go;
#   - lintian: no error or warning but the overrides each package explains.
# No service is started here (no systemd runs in the root; the maintainer scripts skip the start, as in any
# chroot): the hardware-in-the-loop test boots them. Logs in out/debs/test.log.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
out=$repo/out/debs
cache=$repo/.build-deb
mkdir -p "$out" "$cache"
log=$out/test.log
: > "$log"

scripts/apt-install.sh mmdebstrap lintian curl

step() { printf '  %s\n' "$*" >&2; }
fail() { echo "packages: FAILED: $*" >&2; echo "  (log: $log)" >&2; exit 1; }
check() { local what=$1; shift; if "$@" >>"$log" 2>&1; then step "ok: $what"; else fail "$what"; fi; }

version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/KioskSync/KioskVersion+Sync.swift)
old=$version
new=$version+upgrade1
rm -f "$out"/*.deb
step "building the packages ($old, then $new for the upgrade)"
# PACKAGES_BIN: another build's binaries (.ci/run: the tests' debug build; its executables carry the Swift runtime
# as the release build's do, so the packaging under test is the same).
bin=${PACKAGES_BIN:-$(scripts/release-build.sh kiosk kioskctl checkin-server 2>>"$log")}
# gzip rather than xz: the same files, packed in a few seconds instead of a minute.
DEB_BIN=$bin DEB_VERSION=$old DEB_COMPRESSION=gzip scripts/build-debs.sh >>"$log" 2>&1
DEB_BIN=$bin DEB_VERSION=$new DEB_COMPRESSION=gzip scripts/build-debs.sh >>"$log" 2>&1
arch=$(dpkg --print-architecture)

step "lintian"
lintian --fail-on error,warning --allow-root --no-tag-display-limit --display-info "$out"/*_"$old"_"$arch".deb >>"$log" 2>&1 ||
    { grep -E '^[EW]:' "$log" >&2 || true; fail "lintian found errors or warnings (above)"; }
step "ok: lintian: no error or warning (overrides explained in packaging/*/lintian-overrides); $(grep -c '^I:' "$log") notes in $log"

# A fresh Debian 12 root: minbase from the mirror apt uses here, made once and kept in .build-deb.
tarball=$cache/bookworm-minbase.tar
if [ ! -s "$tarball" ]; then
    step "making the Debian 12 root (mmdebstrap, once)"
    mirror=/etc/apt/sources.list.d/debian.sources
    [ -f "$mirror" ] || mirror=/etc/apt/sources.list
    mmdebstrap --variant=minbase --format=tar --quiet bookworm "$tarball.part" "$mirror" >>"$log" 2>&1 && mv "$tarball.part" "$tarball"
fi
R=$(mktemp -d /tmp/debroot.XXXXXX)
cleanup() {
    for m in dev/pts dev proc sys; do umount -l "$R/$m" 2>/dev/null || true; done
    rm -rf "$R"
}
trap cleanup EXIT
tar -C "$R" -xf "$tarball"
mount -t proc proc "$R/proc"
mount --rbind /sys "$R/sys"
mount --rbind /dev "$R/dev"
cp /etc/resolv.conf "$R/etc/resolv.conf"
in_root() { chroot "$R" "$@"; }
apt_in_root() { in_root env DEBIAN_FRONTEND=noninteractive apt-get -y -q -o Dpkg::Options::=--force-confold "$@" >>"$log" 2>&1; }
mkdir -p "$R/tmp/debs" "$R/tmp/door/frames"
cp "$out"/*.deb "$R/tmp/debs/"
cp test-images/roster.csv "$R/tmp/door/roster.csv"
find test-images -maxdepth 1 -type f \( -name "*.png" -o -name "*.jpg" -o -name "*.pgm" \) -exec cp {} "$R/tmp/door/frames/" \;
apt_in_root update

# A command as the service's user with its credential decrypted, as its unit or kioskctl-as-kiosk gives it.
as_service() { # user credential-name credential-file folder command...
    local user=$1 name=$2 cred=$3 dir=$4; shift 4
    mkdir -p "$R/run/creds" && chmod 0700 "$R/run/creds"
    in_root systemd-creds decrypt --name="$name" "$cred" "/run/creds/$name"
    in_root chown -R "$user:" /run/creds
    in_root runuser -u "$user" -- env CREDENTIALS_DIRECTORY=/run/creds sh -c 'cd "$1" && shift && exec "$@"' _ "$dir" "$@"
    local rc=$?
    rm -rf "$R/run/creds"
    return $rc
}
kiosk_as() { as_service kiosk kiosk-db-key /etc/credstore.encrypted/kiosk-db-key /var/lib/kiosk "$@"; }
server_as() { as_service checkin-server checkin-secrets-key /etc/checkin-server/secrets-key.cred /var/lib/checkin-server "$@"; }
# $1 is a system user (uid under 1000) without a login shell, home in /var/lib.
system_user() {
    local entry
    entry=$(in_root getent passwd "$1") && echo "$entry" &&
        [ "$(echo "$entry" | cut -d: -f3)" -lt 1000 ] && [ "$(echo "$entry" | cut -d: -f7)" = /usr/sbin/nologin ] &&
        [ "$(echo "$entry" | cut -d: -f6)" = "/var/lib/$1" ]
}
# systemd-analyze verify of an installed unit says nothing (an unknown key, a missing binary or a bad value would
# be named); the manual pages named by Documentation= are not looked up (the root has no man).
verify_unit() {
    local out
    out=$(in_root systemd-analyze verify --man=no "/lib/systemd/system/$1" 2>&1) && [ -z "$out" ] || { echo "$out"; return 1; }
}
# Mode and owner as the root's own users and groups name them (the host's would name another uid).
mode_of() { in_root stat -c '%a %U:%G' "$1"; }
pending() { kiosk_as kioskctl status --json --config /etc/kiosk/kiosk.conf | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["pending"], sum(d["scansByVerdict"].values()))'; }

echo "== kiosk" >&2
step "install"
check "apt installs kiosk $old and its dependencies into a minimal Debian 12" apt_in_root install "/tmp/debs/kiosk_${old}_$arch.deb"
check "kiosk runs (every library found)" in_root kiosk --help
check "kioskctl runs" in_root kioskctl --help
check "the kiosk user is a system user without a login shell" system_user kiosk
check "/var/lib/kiosk is the kiosk's only (0700)" test "$(mode_of /var/lib/kiosk)" = "700 kiosk:kiosk"
check "the database key credential is root's only (0600) and decrypts to 32 bytes" sh -c \
    "[ \"\$(chroot '$R' stat -c '%a %U' /etc/credstore.encrypted/kiosk-db-key)\" = '600 root' ] && [ \"\$(chroot '$R' systemd-creds decrypt --name=kiosk-db-key /etc/credstore.encrypted/kiosk-db-key - | wc -c)\" = 32 ]"
check "kiosk.service is enabled" test -L "$R/etc/systemd/system/multi-user.target.wants/kiosk.service"
check "kiosk.service verifies (systemd-analyze: every key known, the binary there)" verify_unit kiosk.service
check "the udev rule is installed" test -f "$R/lib/udev/rules.d/70-kiosk.rules"
# The pages the package's messages name (kioskctl status, a missing database key, postinst) are on the box.
check "the kiosk's operator pages are installed (KEYS, INSTALLING, ...)" sh -c \
    "zcat '$R/usr/share/doc/kiosk/KEYS.md.gz' | grep -q '^## Database key' && test -f '$R/usr/share/doc/kiosk/INSTALLING.md.gz'"
check "kiosk.conf is a conffile" sh -c "chroot '$R' dpkg-query --showformat='\${Conffiles}' --show kiosk | grep -q /etc/kiosk/kiosk.conf"

step "a door's day: the roster imported, passes scanned (replayed), the conffile edited"
cp test-images/keys/issuer-1.pub.pem "$R/etc/kiosk/issuer-1.pub.pem"
sed -i 's/^door = .*/door = North door/' "$R/etc/kiosk/kiosk.conf"
check "kioskctl roster import as the kiosk user (creates the encrypted database)" \
    kiosk_as kioskctl roster import --config /etc/kiosk/kiosk.conf --csv /tmp/door/roster.csv
check "the kiosk replays passes into check-ins" kiosk_as kiosk --config /etc/kiosk/kiosk.conf --replay /tmp/door/frames
before=$(pending) || fail "kioskctl status --json"
[ "${before%% *}" -gt 0 ] || fail "no check-in queued after the replay ($before)"
step "ok: ${before%% *} check-ins queued, ${before##* } scans audited"
db_hash=$(sha256sum < "$R/var/lib/kiosk/kiosk.db")
key_hash=$(sha256sum < "$R/etc/credstore.encrypted/kiosk-db-key")
check "the database on disk holds no guest's name (encrypted at rest)" sh -c "! grep -a -q -F \"\$(sed -n '2p' test-images/roster.csv | cut -d, -f2)\" '$R/var/lib/kiosk/kiosk.db'"

step "upgrade to $new"
check "apt upgrades kiosk" apt_in_root install "/tmp/debs/kiosk_${new}_$arch.deb"
check "the new version is installed" sh -c "chroot '$R' dpkg-query --showformat='\${Version}' --show kiosk | grep -qx '$new'"
check "the edited kiosk.conf is kept" grep -q '^door = North door$' "$R/etc/kiosk/kiosk.conf"
check "the database is kept byte for byte" test "$(sha256sum < "$R/var/lib/kiosk/kiosk.db")" = "$db_hash"
check "the database key is kept" test "$(sha256sum < "$R/etc/credstore.encrypted/kiosk-db-key")" = "$key_hash"
check "the queue reads the same" test "$(pending)" = "$before"
check "kiosk.service is still enabled" test -L "$R/etc/systemd/system/multi-user.target.wants/kiosk.service"

step "remove"
check "apt removes kiosk" apt_in_root remove kiosk
check "the programs are gone" sh -c "[ ! -e '$R/usr/bin/kiosk' ] && [ ! -e '$R/usr/bin/kioskctl' ] && [ ! -e '$R/lib/systemd/system/kiosk.service' ]"
check "the database, its key and kiosk.conf stay" sh -c "[ -f '$R/var/lib/kiosk/kiosk.db' ] && [ -f '$R/etc/credstore.encrypted/kiosk-db-key' ] && grep -q '^door = North door$' '$R/etc/kiosk/kiosk.conf'"
check "dpkg keeps its configuration files" sh -c "chroot '$R' dpkg-query --showformat='\${Status}' --show kiosk | grep -qx 'deinstall ok config-files'"
check "apt installs kiosk again" apt_in_root install "/tmp/debs/kiosk_${new}_$arch.deb"
check "the queue reads the same after the reinstall" test "$(pending)" = "$before"

step "purge"
check "apt purges kiosk" apt_in_root purge kiosk
check "the database, kiosk.conf and the key are gone" sh -c "[ ! -e '$R/var/lib/kiosk' ] && [ ! -e '$R/etc/kiosk' ] && [ ! -e '$R/etc/credstore.encrypted/kiosk-db-key' ]"
check "no unit link is left" sh -c "[ -z \"\$(find '$R/etc/systemd' -name 'kiosk.service*')\" ]"
check "dpkg has forgotten kiosk" sh -c "! chroot '$R' dpkg-query --show kiosk 2>/dev/null | grep -q ."

echo "== checkin-server" >&2
step "install"
check "apt installs checkin-server $old and its dependencies" apt_in_root install "/tmp/debs/checkin-server_${old}_$arch.deb"
check "checkin-server runs (every library found)" in_root checkin-server --help
check "the server's operator pages are installed (BACKUPS, SERVER, ...)" sh -c \
    "zcat '$R/usr/share/doc/checkin-server/BACKUPS.md.gz' | grep -q pg_dump && test -f '$R/usr/share/doc/checkin-server/SERVER.md.gz'"
check "the checkin-server user is a system user without a login shell" system_user checkin-server
check "/var/lib/checkin-server is the server's only (0700)" test "$(mode_of /var/lib/checkin-server)" = "700 checkin-server:checkin-server"
check "the secrets key credential is root's only (0600) and decrypts to 32 bytes" sh -c \
    "[ \"\$(chroot '$R' stat -c '%a %U' /etc/checkin-server/secrets-key.cred)\" = '600 root' ] && [ \"\$(chroot '$R' systemd-creds decrypt --name=checkin-secrets-key /etc/checkin-server/secrets-key.cred - | wc -c)\" = 32 ]"
check "checkin-server.conf is root's only (0600: it may name a database)" test "$(mode_of /etc/checkin-server/checkin-server.conf)" = "600 root:root"
check "checkin-server.service is enabled" test -L "$R/etc/systemd/system/multi-user.target.wants/checkin-server.service"
check "checkin-server.service verifies (systemd-analyze)" verify_unit checkin-server.service
check "an organizer's first steps as the service user" server_as sh -c \
    'checkin-server create-tenant --name "Acme Events" && checkin-server create-event --tenant 1 --name Gala --venue Hall --ops-contact "+44 20 7946 0000" --starts 2026-12-01T18:00:00Z --ends 2026-12-01T23:00:00Z --minimum-kiosk-version 1.0.0 --time-zone Europe/London && checkin-server import-guests --event 1 --csv /tmp/door/roster.csv'
check "the database is the server's only" test "$(mode_of /var/lib/checkin-server/checkin.db)" = "600 checkin-server:checkin-server"
step "the server serves with the installed settings (on a free port instead of 8080)"
opts=$(. "$R/etc/checkin-server/checkin-server.conf" && echo "$CHECKIN_SERVE_OPTIONS" | sed 's/--port [0-9]*//')
rm -f "$R/tmp/server.pid" "$R/var/lib/checkin-server/port"
server_as sh -c 'echo $$ > /tmp/server.pid; exec checkin-server serve "$@" --port 0 --port-file /var/lib/checkin-server/port' _ $opts >>"$log" 2>&1 &
for _ in $(seq 600); do [ -s "$R/var/lib/checkin-server/port" ] && break; sleep 0.1; done
port=$(cat "$R/var/lib/checkin-server/port" 2>/dev/null || true)
ready=$(curl -s --max-time 10 "http://127.0.0.1:${port:-1}/readyz" || true)
kill "$(cat "$R/tmp/server.pid")" 2>/dev/null || true
wait || true
[ "$ready" = ready ] || fail "/readyz answered '$ready' (port '$port')"
step "ok: /readyz answers 'ready' on 127.0.0.1:$port"
db_hash=$(sha256sum < "$R/var/lib/checkin-server/checkin.db")
key_hash=$(sha256sum < "$R/etc/checkin-server/secrets-key.cred")
sed -i 's|^CHECKIN_SERVE_OPTIONS=.*|# edited by the venue\n&|' "$R/etc/checkin-server/checkin-server.conf"

step "upgrade to $new"
check "apt upgrades checkin-server" apt_in_root install "/tmp/debs/checkin-server_${new}_$arch.deb"
check "the new version is installed" sh -c "chroot '$R' dpkg-query --showformat='\${Version}' --show checkin-server | grep -qx '$new'"
check "the edited settings are kept" grep -q '^# edited by the venue$' "$R/etc/checkin-server/checkin-server.conf"
check "the database is kept byte for byte" test "$(sha256sum < "$R/var/lib/checkin-server/checkin.db")" = "$db_hash"
check "the secrets key is kept" test "$(sha256sum < "$R/etc/checkin-server/secrets-key.cred")" = "$key_hash"
check "the organizer's data reads the same (the roster, under the kept key)" server_as sh -c \
    'checkin-server enrolment-code --event 1 >/dev/null && checkin-server export --event 1 >/dev/null'

step "remove"
check "apt removes checkin-server" apt_in_root remove checkin-server
check "the program is gone" sh -c "[ ! -e '$R/usr/bin/checkin-server' ] && [ ! -e '$R/lib/systemd/system/checkin-server.service' ]"
check "the database, its key and the settings stay" sh -c "[ -f '$R/var/lib/checkin-server/checkin.db' ] && [ -f '$R/etc/checkin-server/secrets-key.cred' ] && [ -f '$R/etc/checkin-server/checkin-server.conf' ]"

step "purge"
check "apt purges checkin-server" apt_in_root purge checkin-server
check "the database, the settings and the key are gone" sh -c "[ ! -e '$R/var/lib/checkin-server' ] && [ ! -e '$R/etc/checkin-server' ]"
check "no unit link is left" sh -c "[ -z \"\$(find '$R/etc/systemd' -name 'checkin-server.service*')\" ]"
echo "packages: passed (kiosk and checkin-server $old -> $new: install, upgrade, remove, reinstall, purge; lintian)" >&2
