#!/usr/bin/env bash
# A throwaway PgBouncer in transaction pooling mode in front of a scripts/postgres.sh cluster, for
# trying the shared registry behind a pooler and for running its PostgreSQL tests through one.
# Needs Debian's pgbouncer package. Every database of the cluster is served under its own name.
#   scripts/pgbouncer.sh start <port> <postgres port>   starts it, prints the URL to give the registry
#   scripts/pgbouncer.sh stop                           stops it
# The URL carries pgbouncer=true: the registry then uses no named prepared statement (PgBouncer
# before 1.21 cannot keep one across transactions). PGBDIR=<folder> (default .pgbouncer/ here).
set -euo pipefail
cmd=${1:-start}
dir=$(realpath -m "${PGBDIR:-$(dirname "$0")/../.pgbouncer}")

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    port=${2:?usage: scripts/pgbouncer.sh start <port> <postgres port>}
    pgport=${3:?usage: scripts/pgbouncer.sh start <port> <postgres port>}
    command -v pgbouncer >/dev/null || { echo "PgBouncer is not installed: apt-get install -y pgbouncer" >&2; exit 1; }
    mkdir -p "$dir"
    echo '"postgres" ""' >"$dir/users.txt"
    cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$pgport
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/users.txt
pool_mode = transaction
# retry a failed server login after 1 s (default 15 s: PostgreSQL back from a restart would wait that long)
server_login_retry = 1
max_client_conn = 1000
default_pool_size = 20
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
    [ "$(id -u)" = 0 ] && chown -R postgres "$dir"
    if ! { [ -f "$dir/pgbouncer.pid" ] && kill -0 "$(cat "$dir/pgbouncer.pid")" 2>/dev/null; }; then
      as_owner pgbouncer -d -q "$dir/pgbouncer.ini"
    fi
    for _ in $(seq 50); do
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
      sleep 0.1
    done
    echo "postgres://postgres@127.0.0.1:${port}/postgres?pgbouncer=true"
    ;;
  stop)
    if [ -f "$dir/pgbouncer.pid" ]; then
      kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
      rm -f "$dir/pgbouncer.pid"
    fi
    ;;
  *)
    echo "usage: scripts/pgbouncer.sh start <port> <postgres port> | stop" >&2
    exit 2
    ;;
esac
