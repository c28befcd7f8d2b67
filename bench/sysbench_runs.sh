#!/usr/bin/env bash
# Real sysbench 1.0 runs against a MariaDB server started for the purpose, saved as raw
# outputs under benchmarks/demo_data/sysbench/ and imported by `load_demo` like any upload.
#
#   bash bench/sysbench_runs.sh [seconds-per-point]                    # series 1 and 2
#   bash bench/sysbench_runs.sh read-write [seconds] [repetitions]     # series 3 and 4
#
# 1. Read-only OLTP, thread-per-connection against pool-of-threads, over 1..128 threads.
# 2. Durable writes (oltp_write_only, innodb_flush_log_at_trx_commit=1) with the binary
#    log on (sync_binlog=1) and off, over 1..32 threads.
# 3. oltp_read_write over 1..64 threads, repeated (5 times by default, 10 s each), with
#    innodb_flush_log_at_trx_commit=1 against =2. Both servers run side by side and the
#    repetitions alternate between them, so drift from other work on the machine falls
#    on both variants alike; the repetitions give the significance test its samples.
# 4. A history: the same oltp_read_write point (8 threads) run again and again, each run
#    3 repetitions, the last third of the runs with innodb_buffer_pool_size=8M: a change
#    made on purpose, so the regression detector has a real step to find.
# Each configuration gets a fresh server with --no-defaults on port 3407, so the only
# difference between two variants is the option named.
set -euo pipefail
cd "$(dirname "$0")/.."
SERIES=all
if [ "${1:-}" = read-write ]; then SERIES=read-write; shift; fi
SECONDS_PER_POINT=${1:-5}
REPETITIONS=${2:-5}
OUT=benchmarks/demo_data/sysbench
PORT=${PORT:-18633}
SOCKET=/tmp/bench-sysbench-$PORT.sock
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

write_environment() {  # file
{
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"
  echo "memory: $(free -g | awk '/Mem:/ {print $2}') GiB"
  echo "os: $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r)"
  echo "server: $(/usr/sbin/mariadbd --version)"
  echo "client: $(sysbench --version)"
  echo "date: $(date -u +%Y-%m-%d)"
  echo "seconds per point: $SECONDS_PER_POINT; 4 tables x 20000 rows; innodb_buffer_pool_size=512M"
} > "$1"
}

if [ "$SERIES" = read-write ]; then
  RW=$OUT/read-write
  mkdir -p "$RW/flush-at-commit-1" "$RW/flush-at-commit-2" "$RW/history"
  write_environment "$RW/environment.txt"
  echo "repetitions: $REPETITIONS, alternating between the two servers" >> "$RW/environment.txt"
  common=(--db-driver=mysql --mysql-user=root --mysql-db=sbtest --tables=4 --table-size=20000)
  PORT=18633 SOCKET=/tmp/bench-sysbench-18633.sock start_server --innodb-flush-log-at-trx-commit=1
  FIRST_PID=$SERVER_PID FIRST_DIR=$DATADIR
  PORT=18634 SOCKET=/tmp/bench-sysbench-18634.sock start_server --innodb-flush-log-at-trx-commit=2
  SECOND_PID=$SERVER_PID SECOND_DIR=$DATADIR
  for port in 18633 18634; do
    sysbench oltp_read_write "${common[@]}" --mysql-socket=/tmp/bench-sysbench-$port.sock prepare >/dev/null
  done
  for rep in $(seq 1 "$REPETITIONS"); do
    for threads in 1 2 4 8 16 32 64; do
      for variant in 1 2; do
        port=$((18632 + variant))
        echo "  read-write rep $rep/$REPETITIONS, $threads threads, flush-at-commit-$variant"
        sysbench oltp_read_write "${common[@]}" --mysql-socket=/tmp/bench-sysbench-$port.sock \
          --threads="$threads" --time="$SECONDS_PER_POINT" --report-interval=0 run \
          > "$RW/flush-at-commit-$variant/threads-$(printf %03d "$threads")-rep-$rep.txt"
      done
    done
  done
  SOCKET=/tmp/bench-sysbench-18634.sock SERVER_PID=$SECOND_PID DATADIR=$SECOND_DIR stop_server
  SOCKET=/tmp/bench-sysbench-18633.sock SERVER_PID=$FIRST_PID DATADIR=$FIRST_DIR stop_server
  : > "$RW/history/runs.txt"
  # History: 12 runs of 8 threads, 3 repetitions each; runs 9-12 on a server with an 8 MiB buffer pool.
  for run in $(seq 1 12); do
    if [ "$run" = 1 ] || [ "$run" = 9 ]; then
      [ "$run" = 9 ] && stop_server
      pool=512M; [ "$run" -ge 9 ] && pool=8M
      start_server --innodb-flush-log-at-trx-commit=2 --innodb-buffer-pool-size=$pool
      sysbench oltp_read_write "${common[@]}" --mysql-socket=$SOCKET prepare >/dev/null
    fi
    for rep in 1 2 3; do
      echo "  history run $run, rep $rep (buffer pool $pool)"
      sysbench oltp_read_write "${common[@]}" --mysql-socket=$SOCKET --threads=8 \
        --time="$SECONDS_PER_POINT" --report-interval=0 run \
        > "$RW/history/run-$(printf %02d "$run")-rep-$rep.txt"
    done
    echo "run-$(printf %02d "$run"): $(date -u +%Y-%m-%dT%H:%M:%SZ) innodb_buffer_pool_size=$pool" >> "$RW/history/runs.txt"
  done
  stop_server
  echo "done: $RW"
  exit 0
fi

write_environment "$OUT/environment.txt"

echo "thread-per-connection"; start_server --thread-handling=one-thread-per-connection
run_series thread-per-connection oltp_read_only 1 2 4 8 16 32 64 128; stop_server
echo "pool-of-threads"; start_server --thread-handling=pool-of-threads
run_series pool-of-threads oltp_read_only 1 2 4 8 16 32 64 128; stop_server
echo "binlog on"; start_server --log-bin=binlog --sync-binlog=1 --server-id=1
run_series binlog-on oltp_write_only 1 4 16 32; stop_server
echo "binlog off"; start_server --skip-log-bin
run_series binlog-off oltp_write_only 1 4 16 32; stop_server
echo "done: $OUT"
