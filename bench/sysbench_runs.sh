#!/usr/bin/env bash
# Real sysbench 1.0 runs against a MariaDB server started for the purpose, saved as raw
# outputs under benchmarks/demo_data/sysbench/ and imported by `load_demo` like any upload.
#
#   bash bench/sysbench_runs.sh [seconds-per-point]
#
# 1. Read-only OLTP, thread-per-connection against pool-of-threads, over 1..128 threads.
# 2. Durable writes (oltp_write_only, innodb_flush_log_at_trx_commit=1) with the binary
#    log on (sync_binlog=1) and off, over 1..32 threads.
# Each configuration gets a fresh server with --no-defaults on port 3407, so the only
# difference between two variants is the option named.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_POINT=${1:-5}
OUT=benchmarks/demo_data/sysbench
PORT=3407
SOCKET=/run/mysqld/bench-sysbench.sock
command -v sysbench >/dev/null || { apt-get update -qq && apt-get install -y -qq sysbench >/dev/null; }
mkdir -p "$OUT" /run/mysqld && chown mysql:mysql /run/mysqld

start_server() {  # extra mariadbd options
  DATADIR=$(mktemp -d /tmp/bench-mariadb-XXXX); chown mysql:mysql "$DATADIR"
  mariadb-install-db --user=mysql --datadir="$DATADIR" --auth-root-authentication-method=normal >/dev/null
  /usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$DATADIR" --port=$PORT --socket=$SOCKET \
    --pid-file="$DATADIR/pid" --log-error="$DATADIR/err.log" --innodb-buffer-pool-size=512M \
    --max-connections=600 --innodb-flush-log-at-trx-commit=1 "$@" &
  SERVER_PID=$!
  for _ in $(seq 1 60); do mariadb-admin -uroot --socket=$SOCKET ping >/dev/null 2>&1 && break; sleep 0.5; done
  mariadb -uroot --socket=$SOCKET -e "CREATE DATABASE sbtest"
}

stop_server() {
  mariadb-admin -uroot --socket=$SOCKET shutdown || kill "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  rm -rf "$DATADIR"
}

run_series() {  # name, test, threads..., with the server already running
  local name=$1 test=$2; shift 2
  mkdir -p "$OUT/$name"
  local common=(--db-driver=mysql --mysql-user=root --mysql-socket=$SOCKET --mysql-db=sbtest --tables=4 --table-size=20000)
  sysbench "$test" "${common[@]}" prepare >/dev/null
  for threads in "$@"; do
    echo "  $name: $threads threads"
    sysbench "$test" "${common[@]}" --threads="$threads" --time="$SECONDS_PER_POINT" --report-interval=0 run \
      > "$OUT/$name/threads-$(printf %03d "$threads").txt"
  done
}

{
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "os: $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r)"
  echo "server: $(/usr/sbin/mariadbd --version)"
  echo "client: $(sysbench --version)"
  echo "date: $(date -u +%Y-%m-%d)"
  echo "seconds per point: $SECONDS_PER_POINT; 4 tables x 20000 rows; innodb_buffer_pool_size=512M"
} > "$OUT/environment.txt"

echo "thread-per-connection"; start_server --thread-handling=one-thread-per-connection
run_series thread-per-connection oltp_read_only 1 2 4 8 16 32 64 128; stop_server
echo "pool-of-threads"; start_server --thread-handling=pool-of-threads
run_series pool-of-threads oltp_read_only 1 2 4 8 16 32 64 128; stop_server
echo "binlog on"; start_server --log-bin=binlog --sync-binlog=1 --server-id=1
run_series binlog-on oltp_write_only 1 4 16 32; stop_server
echo "binlog off"; start_server --skip-log-bin
run_series binlog-off oltp_write_only 1 4 16 32; stop_server
echo "done: $OUT"
