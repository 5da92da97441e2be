#!/usr/bin/env bash
# A throwaway PostgreSQL for trying the shared registry and for its tests: a cluster of its own in
# a folder (default .postgres/ here, gitignored), listening only on a Unix socket in that folder and
# on 127.0.0.1:<port>, never the system service. Needs Debian's postgresql package (15).
#   scripts/postgres.sh start [port]   creates the cluster if needed, starts it, prints its URL
#   scripts/postgres.sh stop [mode]    stops it (the data stays; delete the folder to forget it);
#                                      mode immediate: as a crash would (the fault tests)
#   scripts/postgres.sh url [port]     prints the URL only
# Throwaway: fsync is off (fast database creation for the tests). PGDIR=<folder> puts it elsewhere. As root, the cluster runs as the `postgres` user (initdb refuses root).
set -euo pipefail
cmd=${1:-start}
port=${2:-55432}
[ "$cmd" = stop ] && port=55432
dir=$(realpath -m "${PGDIR:-$(dirname "$0")/../.postgres}")
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
url="postgres://postgres@127.0.0.1:${port}/postgres"

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  url) echo "$url" ;;
  start)
    if [ -z "$bin" ]; then
      echo "PostgreSQL is not installed: apt-get install -y postgresql" >&2
      exit 1
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log"
    fi
    if ! as_owner "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
      as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
        -o "-k $dir -p $port -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null
    fi
    echo "$url"
    ;;
  stop) as_owner "$bin/pg_ctl" -D "$dir/data" -m "${2:-fast}" stop >/dev/null ;;
  *)
    echo "usage: scripts/postgres.sh start|stop|url [port]" >&2
    exit 2
    ;;
esac
