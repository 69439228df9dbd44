#!/usr/bin/env bash
# Doors on the LAN without the internet (docs/SYNC.md, "Between doors on the LAN", issue 23): the issue's "tests on
# one machine", with the kernel's network namespaces instead of loopback.
#   - a bridge in the root namespace (10.77.N.1/24, N the first subnet free on this machine) and three namespaces,
#     North, South and East (10.77.N.11/.12/.13), each on the bridge by a veth pair;
#   - checkin-server in the root namespace on 10.77.N.1 (HTTPS, a CA made on the spot, SQLite in a temporary
#     folder), with tenant 1, event 1 and test-images/roster.csv;
#   - three kiosks, one per namespace, enrolled, typed at through a FIFO (a guest id and Enter is a manual entry),
#     their text display in a log;
#   - the scenario: the doors link; the server goes and a guest admitted at North is "already checked in at North"
#     at South; ~20 check-ins at North timed until South and East have them; East is cut off and both sides admit,
#     one guest on both sides; South is SIGKILLed and restarted; East comes back, then the server; every kiosk
#     empties its queue; North and South are cut from each other (and South from the server): East passes North's
#     scan on to South and South's to North, signed by their authors; South's route to the server stays blackholed
#     while North's is not: a cancellation and a
#     walk-in made on the server reach South from its peers (signed by the server), and East's revocation, which
#     North's sync brings, makes North and South drop East; the server's export then holds every admit once, one
#     check-in per guest, the double entry marked, and no scan from South for the guests it refused.
# Root only (network namespaces). LAN_BIN: the folder of kiosk, kioskctl and checkin-server (default: the debug
# build's, as scripts/test.sh makes it). Everything made is removed on exit; the run's folder is kept on failure
# (LAN_KEEP=1 keeps it always). Exit 1 on any failed check, with the logs' tails. LAN_STOP_SOUTH=term stops South
# with SIGTERM instead of SIGKILL in step d (to look at the rest of the scenario while a crash bug is open).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
started=${EPOCHREALTIME/./}

say() { printf '%s\n' "$*"; }
die() {
    printf 'lan: FAILED: %s\n' "$*" >&2
    exit 1
}

# --- What the test needs ---------------------------------------------------------------------------------------
[ "$(id -u)" = 0 ] || die "needs root (network namespaces, veth pairs, a bridge); CI runs it as root"
command -v ip >/dev/null || die "needs 'ip' (iproute2) for the network namespaces"
need=()
for tool in openssl:openssl curl:curl jq:jq flock:util-linux; do
    command -v "${tool%%:*}" >/dev/null || need+=("${tool#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    say "installing: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
probe=lan-probe-$$
if ! ip netns add "$probe" 2>/dev/null || ! ip netns exec "$probe" true 2>/dev/null; then
    ip netns del "$probe" 2>/dev/null || true
    die "'ip netns' does not work here (needs root with CAP_SYS_ADMIN and a kernel with network namespaces; in a container: --privileged)"
fi
ip netns del "$probe"

bin=${LAN_BIN:-$(swift build --show-bin-path -debug-info-format none)}
for program in kiosk kioskctl checkin-server; do
    [ -x "$bin/$program" ] || die "no $bin/$program: build first (swift build -debug-info-format none) or set LAN_BIN"
done

# --- The run's names and folder ---------------------------------------------------------------------------------
doors=(North South East)
suffix=$(od -An -N3 -tx1 /dev/urandom | tr -d ' \n')
bridge=lanbr$suffix
work=$(mktemp -d /tmp/lan-test.XXXXXX)
# The run's own copy of the binaries: a build running meanwhile (others at work in the tree) replaces them.
mkdir "$work/bin"
for program in kiosk kioskctl checkin-server; do cp "$bin/$program" "$work/bin/"; done
bin=$work/bin
declare -A ns veth address kpid kfd
server_pid=""
failures=0
network_made=0

stop_process() { # pid: SIGTERM, up to 5 s, then SIGKILL
    local pid=$1
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$?
    set +e
    trap - ERR
    for door in "${doors[@]}"; do [ -n "${kpid[$door]:-}" ] && stop_process "${kpid[$door]}"; done
    [ -n "$server_pid" ] && stop_process "$server_pid"
    if [ "$network_made" = 1 ]; then
        for door in "${doors[@]}"; do
            [ -n "${ns[$door]:-}" ] && ip netns del "${ns[$door]}" 2>/dev/null
            [ -n "${veth[$door]:-}" ] && ip link del "${veth[$door]}" 2>/dev/null
        done
        ip link del "$bridge" 2>/dev/null
    fi
    if [ "$status" = 0 ] && [ "${LAN_KEEP:-0}" != 1 ]; then
        rm -rf "$work"
    else
        rm -rf "$work/bin"
        say "lan: the run's folder (logs, databases, export) is kept: $work" >&2
    fi
    exit "$status"
}
trap cleanup EXIT
set -E
trap 'say "lan: FAILED: line $LINENO: $BASH_COMMAND (exit $?)" >&2' ERR
trap 'exit 130' INT
trap 'exit 143' TERM

tails() { # the logs a failure is judged by
    for door in "${doors[@]}"; do
        say "----- $door: kiosk.log (last 25 lines but the typing and the ready screens) -----"
        grep -v -e '^Manual entry' -e '^Ready: ' -e '^  \[' "$work/$door/kiosk.log" 2>/dev/null | tail -n 25 || true
    done
    say "----- server: serve.log (last 15 lines) -----"
    tail -n 15 "$work/server/serve.log" 2>/dev/null || true
}

ok() { say "  ok: $*"; }
bad() {
    say "  FAILED: $*"
    failures=$((failures + 1))
}
check() { # description, command...: one check's result, the run goes on
    local what=$1
    shift
    if "$@"; then ok "$what"; else bad "$what"; fi
}
fatal() { # a check the rest depends on
    bad "$*"
    tails
    exit 1
}

now_ms() { local t=${EPOCHREALTIME/./}; say $((t / 1000)); }
# eventually SECONDS COMMAND...: true once COMMAND is, polled every 0.1 s.
eventually() {
    local limit=$(($(now_ms) + $1 * 1000))
    shift
    while :; do
        "$@" && return 0
        [ "$(now_ms)" -lt "$limit" ] || return 1
        sleep 0.1
    done
}

# --- Network ----------------------------------------------------------------------------------------------------
# The subnet: the first 10.77.N.0/24 no interface of this machine has (another run, a leftover), chosen under a lock.
lock=/run/lock/kiosk-lan-test.lock
mkdir -p /run/lock
exec {lockfd}>"$lock"
flock "$lockfd"
net=""
for n in $(seq 0 254); do
    if ! ip -4 -o addr show | grep -q " 10\.77\.$n\.[0-9]*/"; then
        net=10.77.$n
        break
    fi
done
[ -n "$net" ] || die "no free subnet 10.77.N.0/24 (leftovers of earlier runs? ip -br link | grep lanbr)"
network_made=1
ip link add "$bridge" type bridge mcast_snooping 0
ip addr add "$net.1/24" dev "$bridge"
ip link set "$bridge" up
exec {lockfd}>&-
host=$net.1
i=0
for door in "${doors[@]}"; do
    i=$((i + 1))
    lower=${door,,}
    ns[$door]=lan-$suffix-$lower
    veth[$door]=lv$suffix$i
    address[$door]=$net.1$i
    ip netns add "${ns[$door]}"
    ip link add "${veth[$door]}" type veth peer name "lp$suffix$i"
    ip link set "lp$suffix$i" netns "${ns[$door]}"
    ip -n "${ns[$door]}" link set "lp$suffix$i" name lan0
    ip -n "${ns[$door]}" addr add "${address[$door]}/24" dev lan0
    ip -n "${ns[$door]}" link set lo up
    ip -n "${ns[$door]}" link set lan0 up
    ip -n "${ns[$door]}" route add 224.0.0.0/4 dev lan0
    ip link set "${veth[$door]}" master "$bridge"
    ip link set "${veth[$door]}" up
done
say "lan: bridge $bridge ($host/24), namespaces ${ns[North]}, ${ns[South]}, ${ns[East]}; folder $work"

# --- Server -----------------------------------------------------------------------------------------------------
srv=$work/server
mkdir -p "$srv"
db=$srv/checkin.db
admin() { "$bin/checkin-server" "$@" --database "$db" 2>>"$srv/admin.log"; }
(
    cd "$srv"
    printf 'subjectAltName=IP:%s\n' "$host" >san.ext
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.pem -days 1 \
        -subj /CN=lan-test-ca
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
        -subj "/CN=$host"
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 -extfile san.ext
) >"$srv/openssl.log" 2>&1 || die "openssl could not make the CA and the server's certificate (see $srv/openssl.log)"
[ "$(admin create-tenant --name Acme)" = 1 ] || die "create-tenant did not make tenant 1"
[ "$(admin create-event --tenant 1 --name Gala --starts 2020-01-01T00:00:00Z --ends 2036-12-01T23:00:00Z)" = 1 ] ||
    die "create-event did not make event 1"
admin import-guests --event 1 --csv "$root/test-images/roster.csv" >/dev/null

port=0
start_server() {
    rm -f "$srv/port"
    (cd "$srv" && exec "$bin/checkin-server" serve --database "$db" --host "$host" --port "$port" \
        --port-file "$srv/port" --tls-certificate server.pem --tls-key server.key --issuance-workers 0) >>"$srv/serve.log" 2>&1 &
    server_pid=$!
    local limit=$(($(now_ms) + 30000))
    while [ ! -s "$srv/port" ]; do
        kill -0 "$server_pid" 2>/dev/null || fatal "checkin-server exited at its start"
        [ "$(now_ms)" -lt "$limit" ] || fatal "checkin-server wrote no port file in 30 s"
        sleep 0.05
    done
    port=$(cat "$srv/port")
    url=https://$host:$port
    eventually 15 curl -s -o /dev/null --cacert "$srv/ca.pem" "$url/v1/events/1" ||
        fatal "checkin-server does not answer at $url"
}
start_server
say "lan: checkin-server at $url (listening on $host, the bridge's address)"

# --- Kiosks -----------------------------------------------------------------------------------------------------
# The roster's active single guests whose line has no quoted field: id and name.
mapfile -t roster < <(grep -v '"' test-images/roster.csv | awk -F, 'NR > 1 && $4 == 1 && $5 == "active" { print $1 "," $2 }')
guest_id() { say "${roster[$1]%%,*}"; }
guest_name() { say "${roster[$1]#*,}"; }
next_guest=0
take_guest() { # variable: set to the next unused guest's index
    printf -v "$1" %s "$next_guest"
    next_guest=$((next_guest + 1))
}

keys=$(admin signing-keys --tenant 1)
for door in "${doors[@]}"; do
    d=$work/$door
    mkdir -p "$d/frames" "$d/keys"
    cp "$srv/ca.pem" "$d/ca.pem"
    head -c 32 /dev/urandom >"$d/keys/kiosk-db.key"
    chmod 600 "$d/keys/kiosk-db.key"
    cat >"$d/kiosk.conf" <<CONF
door = $door
tenant = 1
event = 1
trusted_key = 1 $root/test-images/keys/issuer-1.pub.pem
$keys
database = kiosk.db
database_key_file = keys/kiosk-db.key
server = https://$host:$port
server_ca = ca.pem
sync_interval = 1s
lan_sync = on
lan_port = 7447
lan_interface = ${address[$door]}
source = replay:frames
display = text
sound = off
CONF
    "$bin/kioskctl" roster import --config "$d/kiosk.conf" --csv "$root/test-images/roster.csv" >"$d/setup.log" 2>&1 ||
        die "kioskctl roster import failed at $door: $(tail -n 3 "$d/setup.log")"
    code=$(admin enrolment-code --event 1)
    ip netns exec "${ns[$door]}" "$bin/kioskctl" enroll --config "$d/kiosk.conf" --server "https://$host:$port" \
        --code "$code" --ca-file "$d/ca.pem" >>"$d/setup.log" 2>&1 ||
        die "kioskctl enroll failed at $door (from ${ns[$door]}): $(tail -n 3 "$d/setup.log")"
    mkfifo "$d/keyboard"
    exec {fd}<>"$d/keyboard" # held open read-write: the kiosk's standard input never ends
    kfd[$door]=$fd
done

start_kiosk() {
    local door=$1 d=$work/$1
    (cd "$d" && exec ip netns exec "${ns[$door]}" "$bin/kiosk" --config kiosk.conf) \
        <"$d/keyboard" >>"$d/kiosk.out" 2>>"$d/kiosk.log" &
    kpid[$door]=$!
}
for door in "${doors[@]}"; do start_kiosk "$door"; done
say "lan: kiosks started (pids North ${kpid[North]}, South ${kpid[South]}, East ${kpid[East]})"

type_at() { printf '%s\n' "$2" >&"${kfd[$1]}"; } # door, text: typed and Enter
status() { # door: kioskctl status --json (tried again if the database is busy a moment)
    local out
    for _ in 1 2 3; do
        out=$("$bin/kioskctl" status --config "$work/$1/kiosk.conf" --json --last 0 2>>"$work/kioskctl.log") && break
        out='{}'
        sleep 0.05
    done
    say "$out"
}
field() { status "$1" | jq -r "$2"; }  # door, jq filter
checked_in() { field "$1" '.checkedIn // -1'; }
log_size() { stat -c %s "$work/$1/kiosk.log"; }
log_since() { tail -c +$(($2 + 1)) "$work/$1/kiosk.log"; } # door, size: what the display wrote since
log_has() { log_since "$1" "$2" | grep -qF -- "$3"; }       # door, size, text
linked_doors() { field "$1" '[.lanPeers[]? | select(.linked) | .door] | sort | join(",")'; }
others() { # the two other doors, sorted, comma-separated
    local out=()
    for o in "${doors[@]}"; do [ "$o" != "$1" ] && out+=("$o"); done
    printf '%s\n' "${out[@]}" | sort | paste -sd,
}
all_linked() {
    for door in "${doors[@]}"; do [ "$(linked_doors "$door")" = "$(others "$door")" ] || return 1; done
}
count_is() { [ "$(checked_in "$1")" = "$2" ]; } # door, count
count_at_least() { [ "$(checked_in "$1")" -ge "$2" ]; }

# Admits made (door, guest index), by this script's own account.
admits=()
admit_at() { # door, guest index: typed; the verdict is checked later from the kiosks' own records
    type_at "$1" "$(guest_id "$2")"
    admits+=("$1:$2")
}

# --- a. The doors link ------------------------------------------------------------------------------------------
say "a. linking"
t=$(now_ms)
if eventually 30 all_linked; then
    ok "each door linked with the two others in $(($(now_ms) - t)) ms ($(for door in "${doors[@]}"; do printf '%s: %s; ' "$door" "$(linked_doors "$door")"; done))"
else
    for door in "${doors[@]}"; do say "    $door links: $(linked_doors "$door")"; done
    fatal "the doors did not all link within 30 s (multicast on $bridge; with bridge-nf-call-iptables=1 the host's FORWARD rules apply to the bridge too)"
fi
declare -A device
for door in "${doors[@]}"; do device[$door]=$(field "$door" .sync.deviceId); done

# --- b. Uplink down: a pass admitted at North is already checked in at South ------------------------------------
say "b. the server stops; North admits, South refuses the same pass"
stop_process "$server_pid"
server_pid=""
offline_lan() { log_has "$1" 0 "| OFFLINE | LAN: 2 doors |"; }
for door in "${doors[@]}"; do
    check "$door shows '| OFFLINE | LAN: 2 doors |'" eventually 15 offline_lan "$door"
done
take_guest refused
base_south=$(checked_in South)
base_east=$(checked_in East)
t=$(now_ms)
admit_at North "$refused"
if eventually 10 count_is South $((base_south + 1)); then
    ok "South learned North's check-in in $(($(now_ms) - t)) ms (server down)"
else
    bad "South did not learn North's check-in within 10 s"
fi
check "East learned it too" eventually 5 count_is East $((base_east + 1))
mark=$(log_size South)
type_at South "$(guest_id "$refused")"
refused_at_south() { log_has South "$mark" "ALREADY CHECKED IN" && log_has South "$mark" "at North"; }
check "South: $(guest_name "$refused") is ALREADY CHECKED IN ... at North" eventually 5 refused_at_south
log_since South "$mark" | grep -F -A3 "ALREADY CHECKED IN" | grep -F "Checked in" | head -n 1 | sed 's/^ */    /'
take_guest south_guest
admit_at South "$south_guest"
check "North learned South's own admit" eventually 5 count_is North $((base_south + 2))

# --- g. Propagation: ~20 check-ins at North, timed until South and East have each --------------------------------
say "g. propagation (server down): 20 check-ins at North"
# A kioskctl status costs some 50 ms, so the doors' databases are watched instead: every 20 ms the modification time
# of each door's WAL (the kiosk commits a peer's items there); when it changed, kioskctl status says whether the
# check-in is in. The figure is that WAL time (the commit that brought it, to the kernel's clock tick, unless another
# write came in the 20 ms before it) minus the time of the keystrokes at North: North's commit, its push (North looks
# for new items every 20 ms), the TLS link, and the door's commit. Each door that has it also relays it to the other.
wal_us() { # door: the WAL's modification time in microseconds (0 if none)
    local m
    m=$(stat -c %.9Y "$work/$1/kiosk.db-wal" 2>/dev/null) || m=0.000000000
    m=${m%???}
    say "${m/./}"
}
declare -A base seen checked took
times=() south_times=() east_times=()
for _ in $(seq 20); do
    for door in South East; do
        base[$door]=$(checked_in "$door")
        seen[$door]=$(wal_us "$door")
        checked[$door]=0
        took[$door]=""
    done
    take_guest g
    t=${EPOCHREALTIME/./}
    admit_at North "$g"
    while [ -z "${took[South]}" ] || [ -z "${took[East]}" ]; do
        sleep 0.02
        now=${EPOCHREALTIME/./}
        for door in South East; do
            [ -n "${took[$door]}" ] && continue
            m=$(wal_us "$door")
            # Looked at when the WAL moved, and every 0.5 s regardless.
            [ "$m" != "${seen[$door]}" ] || [ $((now - checked[$door])) -gt 500000 ] || continue
            seen[$door]=$m
            checked[$door]=$now
            [ "$(checked_in "$door")" -gt "${base[$door]}" ] || continue
            [ "$m" -gt "$t" ] || m=${EPOCHREALTIME/./}
            took[$door]=$(((m - t) / 1000))
        done
        if [ $(((now - t) / 1000)) -gt 10000 ]; then
            bad "check-in $g did not reach South and East within 10 s"
            break
        fi
    done
    south_times+=("${took[South]:-10000}")
    east_times+=("${took[East]:-10000}")
    times+=("$((${took[South]:-10000} > ${took[East]:-10000} ? ${took[South]:-10000} : ${took[East]:-10000}))")
    sleep 0.1
done
figures() { # ms...: median max
    local sorted n
    sorted=$(printf '%s\n' "$@" | sort -n)
    n=$#
    printf '%s %s\n' "$(say "$sorted" | sed -n "$(((n + 1) / 2))p")" "$(say "$sorted" | tail -n 1)"
}
read -r median max < <(figures "${times[@]}")
# The design's targets (docs/SYNC.md): a median under 100 ms, checked; a p99 under 1 s, which 20 check-ins cannot
# measure: their largest is shown, with the machine's load (a busy machine delays a few by hundreds of ms).
check "propagation median ${median} ms < 100 ms (the design's target)" test "$median" -lt 100
propagation=$(
    printf '    %-22s %8s %8s\n' "check-in North to" "median" "max"
    read -r a b < <(figures "${south_times[@]}") && printf '    %-22s %5s ms %5s ms\n' South "$a" "$b"
    read -r a b < <(figures "${east_times[@]}") && printf '    %-22s %5s ms %5s ms\n' East "$a" "$b"
    printf '    %-22s %5s ms %5s ms   (%s check-ins)\n' "both (the later one)" "$median" "$max" "${#times[@]}"
    printf '    all, ms: %s\n' "$(printf '%s ' "${times[@]}")"
    printf '    load average during the run: %s' "$(cut -d' ' -f1-3 /proc/loadavg)"
)
say "$propagation"

# --- c. Partition: East is cut off; both sides admit, one guest on both sides -----------------------------------
say "c. partition: East's link down"
ip link set "${veth[East]}" down
north0=$(checked_in North)
east0=$(checked_in East)
sleep 0.5
take_guest double
admit_at East "$double"
sleep 0.3
mark_north=$(log_size North)
admit_at North "$double"
double_admitted_north() { log_has North "$mark_north" "WELCOME"; }
check "North admits $(guest_name "$double") too (it cannot know East's scan)" eventually 5 double_admitted_north
for _ in 1 2; do
    for door in "${doors[@]}"; do
        take_guest g
        admit_at "$door" "$g"
    done
done
check "North and South learned each other's admits" eventually 5 count_is South $((north0 + 5))
check "North has them all" eventually 5 count_is North $((north0 + 5))
check "East has its own 3" eventually 5 count_is East $((east0 + 3))
sleep 1
check "East learned nothing from across the partition" count_is East $((east0 + 3))
# Not a check: what North's status says of East while East is cut off (the links have no keepalive).
say "    note: during the partition North lists as linked: $(linked_doors North); its screen: $(grep -F '| OFFLINE |' "$work/North/kiosk.log" | tail -n 1 | sed 's/^ *//')"

# --- d. SIGKILL South mid-run, restart it ---------------------------------------------------------------------------
stop_signal=KILL
[ "${LAN_STOP_SOUTH:-kill}" = term ] && stop_signal=TERM
say "d. South stopped by SIG$stop_signal while admitting, restarted on the same folder"
south_before=$(field South '.scansByVerdict.admitted // 0')
south_pending=$(field South .pending)
take_guest killed_guest
mark=$(log_size South)
type_at South "$(guest_id "$killed_guest")"
sleep 0.0$((RANDOM % 10))
kill -"$stop_signal" "${kpid[South]}"
wait "${kpid[South]}" 2>/dev/null || true
kpid[South]=""
shown=0
log_has South "$mark" "$(guest_name "$killed_guest")" && log_has South "$mark" WELCOME && shown=1
# North admits while South is down: South must catch it up after its restart.
take_guest while_down
admit_at North "$while_down"
sleep 0.5
start_kiosk South
south_after=$(field South '.scansByVerdict.admitted // 0')
south_pending_after=$(field South .pending)
if [ "$shown" = 1 ] || [ "$south_after" -gt "$south_before" ]; then
    admits+=("South:$killed_guest")
    say "    the guest typed just before the kill was admitted (shown: $shown)"
else
    say "    the guest typed just before the kill was not admitted (killed first)"
fi
check "South's admits survived the kill: $south_after in its audit log after, $south_before before (+$shown shown)" \
    test "$south_after" -ge $((south_before + shown))
check "South's queue survived the kill: $south_pending_after pending after, $south_pending before (+$shown shown)" \
    test "$south_pending_after" -ge $((south_pending + shown))
# (North's link to East stays up on North's side through the partition: no TCP keepalive, nothing fails it.)
south_relinked() { [ "$(linked_doors South)" = North ] && [[ ,$(linked_doors North), == *,South,* ]]; }
check "South, restarted, linked with North again" eventually 20 south_relinked
check "South caught up North's admit made while it was down" eventually 10 count_at_least South "$(checked_in North)"
north0=$(checked_in North)
take_guest after_restart
admit_at South "$after_restart"
check "South's first admit after its restart reached North" eventually 5 count_is North $((north0 + 1))

# --- e. Heal: East back, then the server --------------------------------------------------------------------------
say "e. heal: East's link up, then the server"
ip link set "${veth[East]}" up
# Every door ends with every guest admitted anywhere: by the LAN alone (the server is still down).
distinct=$(for a in "${admits[@]}"; do say "${a#*:}"; done | sort -u | wc -l)
converged() { for door in "${doors[@]}"; do count_is "$door" "$distinct" || return 1; done; }
t=$(now_ms)
if eventually 30 converged; then
    ok "the two sides merged over the LAN in $(($(now_ms) - t)) ms: each door has $distinct check-ins"
else
    bad "the sides did not merge over the LAN within 30 s ($(for door in "${doors[@]}"; do printf '%s %s; ' "$door" "$(checked_in "$door")"; done)expected $distinct)"
fi
check "each door linked with the two others again" eventually 20 all_linked
start_server
say "    checkin-server back at $url"
no_pending() { for door in "${doors[@]}"; do [ "$(field "$door" .pending)" = 0 ] || return 1; done; }
t=$(now_ms)
# The kiosks' sync backs off while the server is away (up to 60 s between tries): they find it back by themselves.
if eventually 75 no_pending; then
    ok "every kiosk's queue is empty $(($(now_ms) - t)) ms after the server came back"
else
    bad "queues not empty within 75 s ($(for door in "${doors[@]}"; do printf '%s %s pending; ' "$door" "$(field "$door" .pending)"; done))"
fi
north_superseded() { [ "$(field North '.sync.superseded // 0')" -ge 1 ]; }
check "North's scan of $(guest_name "$double") is marked superseded on North (kioskctl status)" eventually 10 north_superseded

# --- i. Through a door: North and South cannot see each other, East passes their scans on -----------------------
# South's route to the server is cut too (and stays cut for h): the server cannot be how South learns North's scan.
say "i. North and South cut from each other (and South from the server): East passes their scans on"
ip netns exec "${ns[South]}" ip route add blackhole "$host/32"
ip netns exec "${ns[North]}" ip route add blackhole "${address[South]}/32"
ip netns exec "${ns[South]}" ip route add blackhole "${address[North]}/32"
mark_relay=$(log_size South)
base_south=$(checked_in South)
take_guest relayed
t=$(now_ms)
admit_at North "$relayed"
if eventually 10 count_is South $((base_south + 1)); then
    ok "South learned North's check-in through East in $(($(now_ms) - t)) ms"
else
    bad "South did not learn North's check-in through East within 10 s"
fi
passed_by_east() { log_has South "$mark_relay" "scans of North passed on by East"; }
check "South's log: North's scan passed on by East (signed by North)" eventually 5 passed_by_east
base_north=$(checked_in North)
take_guest relayed_back
admit_at South "$relayed_back"
check "North learned South's admit through East" eventually 10 count_is North $((base_north + 1))
ip netns exec "${ns[North]}" ip route del blackhole "${address[South]}/32"
ip netns exec "${ns[South]}" ip route del blackhole "${address[North]}/32"
check "North and South linked again once they can see each other" eventually 45 all_linked

# --- h. The server's word over the LAN: South cannot reach the server, North can -----------------------------------
# A cancellation and a walk-in North fetched reach South (and East) signed by the server; then East is revoked on the
# server, North learns it with its heartbeat (kioskctl sync, as an operator would run it), and both North and South
# (which has no uplink) drop East's links.
say "h. South's route to the server still cut; a cancellation, a walk-in and a revocation reach it over the LAN"
mark_cut=$(log_size South)
t=$(now_ms)
take_guest cancelled_guest
admin cancel-guest --event 1 --guest "$(guest_id "$cancelled_guest")" >/dev/null
walkin_id=$(admin add-guest --event 1 --name "Late Comer" | tr -d '-')
roster+=("$walkin_id,Late Comer")
walkin=$((${#roster[@]} - 1))
# The walk-in is typed at South until it is admitted (each try waits 2 s; a try before the row arrived is an audited
# NOT IN ROSTER). The cancellation was made first: any delta with the walk-in has it too, so once the walk-in is
# in, one try of the cancelled guest must be refused (typed earlier, it would have been admitted).
typed_until() { # door, guest index, text
    local m
    m=$(log_size "$1")
    type_at "$1" "$(guest_id "$2")"
    eventually 2 log_has "$1" "$m" "$3"
}
if eventually 20 typed_until South "$walkin" "Late Comer   Party of 1"; then
    admits+=("South:$walkin")
    ok "South admits the walk-in Late Comer $(($(now_ms) - t)) ms after it was added on the server"
else
    bad "South did not learn the walk-in within 20 s"
fi
check "South refuses $(guest_name "$cancelled_guest"), cancelled on the server: REGISTRATION CANCELLED" \
    typed_until South "$cancelled_guest" "REGISTRATION CANCELLED"
from_peers=$(log_since South "$mark_cut" | grep -c 'roster changes from' || true)
own_roster=$(log_since South "$mark_cut" | grep -c '\[KioskSync\] roster:' || true)
check "South learned both from its peers ($from_peers messages), its own sync applied no roster change ($own_roster)" \
    test "$from_peers" -ge 1 -a "$own_roster" = 0
admin revoke-device --tenant 1 --device "${device[East]}" >/dev/null
(cd "$work/North" && ip netns exec "${ns[North]}" "$bin/kioskctl" sync --config kiosk.conf >>"$work/North/setup.log" 2>&1) ||
    bad "kioskctl sync at North failed: $(tail -n 2 "$work/North/setup.log")"
east_dropped() {
    [ "$(linked_doors North)" = South ] && [ "$(linked_doors South)" = North ]
}
t=$(now_ms)
if eventually 20 east_dropped; then
    ok "North and South dropped East's links $(($(now_ms) - t)) ms after North's sync brought East's revocation"
else
    bad "East was still linked 20 s after its revocation (North: $(linked_doors North); South: $(linked_doors South))"
fi
south_knows_revocation() { grep -qF "closing the link with East: the server revoked it" "$work/South/kiosk.log" ||
    grep -qF "the server revoked East" "$work/South/kiosk.log"; }
check "South (no uplink) holds East's revocation, passed on by North" eventually 10 south_knows_revocation
ip netns exec "${ns[South]}" ip route del blackhole "$host/32"
south_empty() { [ "$(field South .pending)" = 0 ]; }
check "South's queue is empty once its route is back (the walk-in's admit uploaded)" eventually 75 south_empty

# --- f. Invariants against the server's export ------------------------------------------------------------------------
say "f. the server's export"
admin export --event 1 >"$work/export.jsonl"
x=$work/export.jsonl
events() { jq -c 'select(.record == "check_in_event")' "$x"; }
admitted_total=0
for door in "${doors[@]}"; do
    made=$(field "$door" '.scansByVerdict.admitted // 0')
    admitted_total=$((admitted_total + made))
    on_server=$(events | jq -r --arg d "${device[$door]}" 'select(.deviceId == $d) | .sequence' | wc -l)
    check "$door: $made admits in its log, $on_server scans from it on the server" test "$made" = "$on_server"
done
check "the admits the script made (${#admits[@]}) are the doors' own count ($admitted_total)" \
    test "${#admits[@]}" = "$admitted_total"
dups=$(events | jq -r '"\(.deviceId) \(.epoch) \(.sequence)"' | sort | uniq -d | wc -l)
check "no scan twice on the server (by device, epoch, sequence): $dups duplicated" test "$dups" = 0
total=$(events | wc -l)
check "scans on the server: $total, admits made: ${#admits[@]}" test "$total" = "${#admits[@]}"
checkins=$(jq -r 'select(.record == "check_in") | .guestId' "$x" | sort)
distinct=$(for a in "${admits[@]}"; do say "${a#*:}"; done | sort -u | wc -l)
check "one check-in per guest: $(say "$checkins" | wc -l) check-ins, $distinct guests admitted" \
    test "$(say "$checkins" | sort -u | wc -l)" = "$distinct" -a "$(say "$checkins" | wc -l)" = "$distinct"
expected_guests=$(for a in "${admits[@]}"; do guest_id "${a#*:}"; done | sort -u)
check "the check-ins are exactly the guests admitted" test "$checkins" = "$expected_guests"
did=$(guest_id "$double")
winner=$(jq -r --arg g "$did" 'select(.record == "check_in" and .guestId == $g) | .door' "$x")
check "$(guest_name "$double"), admitted at East then North during the partition: the check-in is East's ($winner)" \
    test "$winner" = East
north_scan=$(events | jq -r --arg g "$did" 'select(.guestId == $g and .door == "North") | "\(.outcome) \(.checkInDoor)"')
check "... and North's scan of that guest is superseded by East's ($north_scan)" test "$north_scan" = "superseded East"
doubles=$(jq -r --arg g "$did" 'select(.record == "double_entry" and .guestId == $g) | .door' "$x")
check "... and listed as a double entry ($doubles)" test "$doubles" = North
rid=$(guest_id "$refused")
from_south=$(events | jq -r --arg g "$rid" 'select(.guestId == $g and .door == "South")' | wc -l)
check "$(guest_name "$refused"), refused at South in b: no scan from South ($from_south)" test "$from_south" = 0
others_doubles=$(jq -r 'select(.record == "double_entry") | .guestId' "$x" | grep -vc "^$did\$" || true)
check "no other double entry ($others_doubles)" test "$others_doubles" = 0

# --- The end --------------------------------------------------------------------------------------------------------
say "propagation of a check-in from North to both other doors (LAN only, server down):"
say "$propagation"
elapsed=$(((${EPOCHREALTIME/./} - started) / 1000000))
if [ "$failures" -gt 0 ]; then
    tails
    die "$failures checks failed ($elapsed s)"
fi
say "lan: all checks passed in $elapsed s"
