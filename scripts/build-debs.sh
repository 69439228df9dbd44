#!/usr/bin/env bash
# Builds the Debian packages from the release build (scripts/release-build.sh):
#   out/debs/kiosk_VERSION_ARCH.deb           kiosk, kioskctl, kioskctl-as-kiosk, the unit, the udev rule,
#                                             /etc/kiosk/kiosk.conf (a conffile), the kiosk user (postinst)
#   out/debs/checkin-server_VERSION_ARCH.deb  checkin-server, checkin-server-admin, the hardened unit,
#                                             /etc/checkin-server/checkin-server.conf, the checkin-server user
# VERSION is KioskSoftware.version (Sources/KioskSync/KioskVersion+Sync.swift) unless DEB_VERSION says another;
# DEB_OUT names another folder; DEB_COMPRESSION another dpkg-deb compressor than xz (the tests take gzip: xz
# on the static binaries is half a minute a package). The dependencies are Debian's runtime libraries the binaries link, as
# dpkg-shlibdeps finds them, plus what the maintainer scripts call. Tests/Packages/run.sh installs, upgrades,
# removes and purges them in a Debian 12 root and runs lintian on them.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${DEB_OUT:-$root/out/debs}
version=${DEB_VERSION:-$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/KioskSync/KioskVersion+Sync.swift)}
[ -n "$version" ] || { echo "build-debs: no version found in Sources/KioskSync/KioskVersion+Sync.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
maintainer="QR check-in project <checkin@lists.example.org>"
homepage="https://checkin.example.org/"
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

scripts/apt-install.sh dpkg-dev help2man binutils file

# DEB_BIN: the folder of an existing release build (Tests/Packages/run.sh packages one build twice).
bin=${DEB_BIN:-$(scripts/release-build.sh kiosk kioskctl checkin-server)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# The door's kiosk.conf: the shipped one with a door's settings (camera, screen, state in /var/lib/kiosk, the
# database key from its credential).
door_conf() {
    sed -e 's|^# This file, as shipped, runs the kiosk on its embedded default: the test event of test-images/,$|# This file, as the kiosk package installs it, is for a door: the camera, the screen, the state in\n# /var/lib/kiosk, the database key from the systemd credential the package made. Before enrolling, set door,\n# tenant, event, trusted_key and server (/usr/share/doc/kiosk/INSTALLING.md.gz, "Installing at a door");\n# then `sudo systemctl reload kiosk` applies later changes. dpkg keeps this file as you edit it across upgrades.|' \
        -e '/^# replayed instead of a camera, shown on the text display\.$/d' \
        -e 's|^trusted_key = 1 test-images/keys/issuer-1.pub.pem$|trusted_key = 1 /etc/kiosk/issuer-1.pub.pem|' \
        -e 's|^database = .kiosk/kiosk.db$|database = /var/lib/kiosk/kiosk.db|' \
        -e '/^database_key_file = /d' \
        -e 's|^source = replay:test-images$|source = camera:/dev/kiosk-camera|' \
        -e 's|^replay_fps = 0.2$|# replay_fps = 0.2|' \
        -e 's|^display = text$|display = auto|' kiosk.conf
}

# $1 package, $2 its staged tree: DEBIAN/control (with the shared libraries' packages), md5sums, then the .deb.
finish() {
    local pkg=$1 tree=$2 shlibs size
    mkdir -p "$work/shlibs/debian"
    printf 'Source: checkin\n\nPackage: %s\nArchitecture: any\n' "$pkg" > "$work/shlibs/debian/control"
    shlibs=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e $(find "$tree/usr/bin" -type f -exec sh -c 'file -b "$1" | grep -q ELF' _ {} \; -print) 2>/dev/null |
        sed -n 's/^shlibs:Depends=//p')
    [ -n "$shlibs" ] || { echo "build-debs: dpkg-shlibdeps found no libraries for $pkg" >&2; exit 1; }
    size=$(du -sk --exclude=DEBIAN "$tree" | cut -f1)
    sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" -e "s|@SIZE@|$size|" \
        -e "s|@SHLIBS@|$shlibs|" -e "s|@HOMEPAGE@|$homepage|" "packaging/$pkg/control" > "$tree/DEBIAN/control"
    (cd "$tree" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$tree/DEBIAN/md5sums"
    chmod 0644 "$tree/DEBIAN/md5sums" "$tree/DEBIAN/control"
    find "$tree" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    dpkg-deb --root-owner-group "-Z${DEB_COMPRESSION:-xz}" --build "$tree" "$out/${pkg}_${version}_${arch}.deb" >&2
    echo "$out/${pkg}_${version}_${arch}.deb"
}

# $1 package: the pages of docs/ it carries in /usr/share/doc/PACKAGE (gzipped, as Debian keeps documentation).
docs_of() {
    case $1 in
    kiosk) echo INSTALLING.md CONFIGURATION.md KEYS.md LAN.md BACKUPS.md ;;
    checkin-server) echo SERVER.md KEYS.md BACKUPS.md SYNC.md ;;
    esac
}

# $1 package: the tree every package has (docs, maintainer scripts, lintian overrides).
common() {
    local pkg=$1 tree=$work/$1
    install -d -m 0755 "$tree/DEBIAN" "$tree/usr/bin" "$tree/usr/sbin" "$tree/lib/systemd/system" \
        "$tree/usr/share/doc/$pkg" "$tree/usr/share/lintian/overrides"
    install -m 0644 packaging/copyright "$tree/usr/share/doc/$pkg/copyright"
    printf '%s (%s) bookworm; urgency=medium\n\n  * Built from commit %s.\n\n -- %s  %s\n' "$pkg" "$version" \
        "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$maintainer" \
        "$(date -R -u -d "@$SOURCE_DATE_EPOCH")" | gzip -9n > "$tree/usr/share/doc/$pkg/changelog.gz"
    chmod 0644 "$tree/usr/share/doc/$pkg/changelog.gz"
    # The operator's pages the package's messages point at (the database key, backups, installing), beside it.
    local page
    for page in $(docs_of "$pkg"); do
        gzip -9n < "docs/$page" > "$tree/usr/share/doc/$pkg/$page.gz"
        chmod 0644 "$tree/usr/share/doc/$pkg/$page.gz"
    done
    install -m 0644 "packaging/$pkg/lintian-overrides" "$tree/usr/share/lintian/overrides/$pkg"
    for script in postinst prerm postrm; do install -m 0755 "packaging/$pkg/$script" "$tree/DEBIAN/$script"; done
    install -m 0644 "systemd/$pkg.service" "$tree/lib/systemd/system/$pkg.service"
}

# $1 program, $2 tree, $3 its one-line description: the binary stripped as dh_strip strips it, and its manual
# page made from its --help by help2man.
binary() {
    install -m 0755 "$bin/$1" "$2/usr/bin/$1"
    strip --remove-section=.comment --remove-section=.note --strip-unneeded "$2/usr/bin/$1"
    install -d -m 0755 "$2/usr/share/man/man1"
    help2man --no-info --no-discard-stderr --version-string="$version" --name="$3" --section=1 "$2/usr/bin/$1" |
        gzip -9n > "$2/usr/share/man/man1/$1.1.gz"
    chmod 0644 "$2/usr/share/man/man1/$1.1.gz"
}
# $1 the script in packaging/PACKAGE, $2 tree, $3 package: installed in /usr/sbin with its manual page.
admin_script() {
    install -m 0755 "packaging/$3/$1" "$2/usr/sbin/$1"
    install -d -m 0755 "$2/usr/share/man/man8"
    gzip -9n < "packaging/$3/$1.8" > "$2/usr/share/man/man8/$1.8.gz"
    chmod 0644 "$2/usr/share/man/man8/$1.8.gz"
}

tree=$work/kiosk
common kiosk
binary kiosk "$tree" "QR check-in kiosk: the door daemon"
binary kioskctl "$tree" "the QR check-in kiosk operator's tool"
admin_script kioskctl-as-kiosk "$tree" kiosk
install -D -m 0644 udev/70-kiosk.rules "$tree/lib/udev/rules.d/70-kiosk.rules"
install -d -m 0755 "$tree/etc/kiosk"
door_conf > "$tree/etc/kiosk/kiosk.conf" && chmod 0644 "$tree/etc/kiosk/kiosk.conf"
echo /etc/kiosk/kiosk.conf > "$tree/DEBIAN/conffiles"
finish kiosk "$tree"

tree=$work/checkin-server
common checkin-server
binary checkin-server "$tree" "QR check-in server: kiosk API, organizer pages, pass issuance"
admin_script checkin-server-admin "$tree" checkin-server
install -d -m 0755 "$tree/etc/checkin-server"
# Root's only: systemd reads it before the service drops to its user, and a venue may put a database URL in it.
install -m 0600 packaging/checkin-server/checkin-server.conf "$tree/etc/checkin-server/checkin-server.conf"
echo /etc/checkin-server/checkin-server.conf > "$tree/DEBIAN/conffiles"
finish checkin-server "$tree"
