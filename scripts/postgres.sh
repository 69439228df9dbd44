#!/usr/bin/env bash
# A throwaway PostgreSQL for the tests: installs Debian's postgresql if missing, makes a cluster in .build/pg
# (owned by the postgres user when run as root: initdb refuses root), starts it on 127.0.0.1 at port
# ${CHECKIN_TEST_POSTGRES_PORT:-54329}, makes the user and database "checkin", and writes the connection URL to
# .build/pg/url (the tests read CHECKIN_TEST_POSTGRES_URL, else that file). Idempotent: a running server is
# reused. Source it to get CHECKIN_TEST_POSTGRES_URL exported; run it to see the URL.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${CHECKIN_TEST_POSTGRES_PORT:-54329}"
dir="$root/.build/pg"
data="$dir/data"
password="checkin-test"
url="postgres://checkin:$password@127.0.0.1:$port/checkin"
sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "installing: postgresql" >&2
  $sudo apt-get update -qq
  # The package's own cluster is not needed (ours lives in .build/pg): do not start services on install.
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod +x /usr/sbin/policy-rc.d
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  $sudo rm -f /usr/sbin/policy-rc.d
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"

# Run a PostgreSQL program as the cluster's owner.
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

mkdir -p "$dir"
if [ "$(id -u)" = 0 ]; then
  chown postgres:postgres "$dir"
  # The postgres user must be able to reach .build/pg through the folders above it.
  p="$dir"
  while [ "$p" != "/" ]; do p="$(dirname "$p")"; chmod o+x "$p" 2>/dev/null || true; done
fi
if [ ! -f "$data/PG_VERSION" ]; then
  as_owner "$bin/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
  cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 1000
fsync = off
synchronous_commit = off
full_page_writes = off
CONF
  # Password login over TCP; trust on the socket in .build/pg (for this script).
  cat >"$data/pg_hba.conf" <<HBA
local all all trust
host all all 127.0.0.1/32 scram-sha-256
HBA
fi
if ! as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  # Settings given at every start, so a cluster made by an older version of this script gets them too:
  # - the port asked for now, whatever postgresql.conf said when the cluster was made;
  # - max_connections: the whole suite starts at once and each PostgreSQL test has a pool of its own (95 to 115
  #   connections at the peak here, under load);
  # - no timed checkpoint: a test's databases are dropped when it ends, and DROP DATABASE waits for a checkpoint.
  #   A timed one spreads its writes over minutes (one took 140 s in a whole-suite run here, load 6): every drop
  #   waited behind it, then the test-database client's connections with them, and new tests could not make their
  #   databases (the likely cause of the CI run of stop 30, where a test hung 5 minutes opening its store). The
  #   drops' own checkpoints keep the WAL short.
  # - a log that says what a stalled test waited for: each connection with its database, lock waits over 1 s and
  #   statements over 2 s (a test that does not finish in time prints its database's lines).
  options="-p $port -c max_connections=1000 -c checkpoint_timeout=1d -c max_wal_size=4GB"
  # - no autovacuum: the tests' databases live for seconds, and DROP DATABASE … WITH (FORCE) cannot end an
  #   autovacuum worker for a role that is not a superuser ("must be a member of the role whose process is being
  #   terminated"): a drop right after pg_restore filled a database failed so, here and in the CI run of stop 30.
  options+=" -c autovacuum=off"
  options+=" -c log_connections=on -c log_disconnections=on -c log_lock_waits=on -c log_min_duration_statement=2000"
  options+=" -c log_line_prefix='%m [%p] %d '"
  if ! as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -o "$options" -w -t 60 start >/dev/null; then
    tail -n 5 "$dir/server.log" >&2
    if grep -q "Address already in use" "$dir/server.log"; then
      echo "postgres.sh: port $port on 127.0.0.1 is taken (another checkout's test PostgreSQL? 'ss -ltnp | grep $port' names" \
        "it): stop that one, or give this checkout another port: CHECKIN_TEST_POSTGRES_PORT=54339" >&2
    else
      echo "postgres.sh: the test PostgreSQL in $data did not start; its log is $dir/server.log" >&2
    fi
    return 1 2>/dev/null || exit 1
  fi
fi
psql=("$bin/psql" -h "$dir" -p "$port" -U postgres -v ON_ERROR_STOP=1 -qAt)
if [ "$(as_owner "${psql[@]}" -d postgres -c "SELECT 1 FROM pg_roles WHERE rolname = 'checkin'")" != 1 ]; then
  # CREATEDB: each test makes its own database.
  as_owner "${psql[@]}" -d postgres -c "CREATE ROLE checkin LOGIN CREATEDB PASSWORD '$password'"
fi
if [ "$(as_owner "${psql[@]}" -d postgres -c "SELECT 1 FROM pg_database WHERE datname = 'checkin'")" != 1 ]; then
  as_owner "${psql[@]}" -d postgres -c "CREATE DATABASE checkin OWNER checkin"
fi
echo "$url" >"$dir/url"
export CHECKIN_TEST_POSTGRES_URL="$url"
echo "PostgreSQL for the tests: $url" >&2
