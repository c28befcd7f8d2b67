#!/usr/bin/env bash
# Real sysbench 1.0 runs against a MariaDB server started for the purpose, saved as raw
# outputs under benchmarks/demo_data/sysbench/ and imported by `load_demo` like any upload.
#
#   bash bench/sysbench_runs.sh [seconds-per-point]                    # series 1 and 2
#   bash bench/sysbench_runs.sh read-write [seconds] [repetitions]     # series 3 and 4
#   bash bench/sysbench_runs.sh versions [seconds] [repetitions]       # series 5
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
# 5. Server versions: the same oltp_read_write points (1 and 8 threads) against three
#    releases of the server, each from Debian's own package: 10.11.18 (Debian 12's
#    point release), 10.11.19 (Debian 12's security update, the one installed here) and
#    11.8.9 (Debian 13's, run on this Debian 12 machine with Debian 13's C and C++
#    libraries beside it, through their dynamic loader). The packages are unpacked
#    under /tmp, not installed. The three servers run side by side with the same
#    options and the repetitions take turns, as in series 3.
# Each configuration gets a fresh server with --no-defaults on port 3407, so the only
# difference between two variants is the option named.
set -euo pipefail
cd "$(dirname "$0")/.."
SERIES=all
if [ "${1:-}" = read-write ] || [ "${1:-}" = versions ]; then SERIES=$1; shift; fi
SECONDS_PER_POINT=${1:-5}
REPETITIONS=${2:-5}
OUT=benchmarks/demo_data/sysbench
PORT=${PORT:-18633}
SOCKET=/tmp/bench-sysbench-$PORT.sock
command -v sysbench >/dev/null || { apt-get update -qq && apt-get install -y -qq sysbench >/dev/null; }
mkdir -p "$OUT" /run/mysqld && chown mysql:mysql /run/mysqld

MARIADBD=/usr/sbin/mariadbd
INSTALL_DB=(mariadb-install-db)
SERVER_BASE=()  # --basedir and messages of a server unpacked elsewhere (series 5)
start_server() {  # extra mariadbd options
  DATADIR=$(mktemp -d /tmp/bench-mariadb-XXXX); chown mysql:mysql "$DATADIR"
  "${INSTALL_DB[@]}" --user=mysql --datadir="$DATADIR" --auth-root-authentication-method=normal >/dev/null
  $MARIADBD --no-defaults "${SERVER_BASE[@]}" --user=mysql --datadir="$DATADIR" --port=$PORT --socket=$SOCKET \
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

unpack_server() {  # directory, apt options..., package=version: a server from Debian's package, unpacked
  local dir=$1; shift
  mkdir -p "$dir/debs" "$dir/root"
  (cd "$dir/debs" && apt-get "$@" 2>&1 >/dev/null | grep -v unsandboxed || true)
  for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
  # mariadb-install-db --basedir=... looks for sbin/mariadbd, bin/my_print_defaults and share/
  mkdir -p "$dir/base/bin" "$dir/base/sbin" "$dir/base/lib/mysql"
  ln -sf "$dir/root/usr/share" "$dir/base/share"
  ln -sf "$dir/root/usr/lib/mysql/plugin" "$dir/base/lib/mysql/plugin"
  ln -sf "$(command -v my_print_defaults)" "$dir/base/bin/my_print_defaults"
  ln -sf "$(command -v resolveip || echo /usr/bin/resolveip)" "$dir/base/bin/resolveip"
}

if [ "$SERIES" = versions ]; then
  VERSIONS=$OUT/versions
  WORK=/tmp/bench-server-versions
  rm -rf "$WORK"; mkdir -p "$WORK" "$VERSIONS"
  command -v apt-get >/dev/null && apt-get update -qq
  # Debian 12's point release of 10.11 (the installed one is its security update).
  unpack_server "$WORK/10.11.18" download "mariadb-server-core=1:10.11.18-0+deb12u1"
  printf '#!/bin/sh\nexec %s "$@"\n' "$WORK/10.11.18/root/usr/sbin/mariadbd" > "$WORK/10.11.18/base/sbin/mariadbd"
  # Debian 13's 11.8 with its own C and C++ libraries, from lists kept apart from the system's.
  TRIXIE=$WORK/trixie-lists; mkdir -p "$TRIXIE/lists/partial" "$TRIXIE/cache/archives/partial"
  echo "deb http://deb.debian.org/debian trixie main" > "$TRIXIE/sources.list"
  APT_TRIXIE=(-o Dir::Etc::sourcelist="$TRIXIE/sources.list" -o Dir::Etc::sourceparts=/dev/null
              -o Dir::State::Lists="$TRIXIE/lists" -o Dir::Cache="$TRIXIE/cache")
  apt-get "${APT_TRIXIE[@]}" update -qq
  unpack_server "$WORK/11.8.9" "${APT_TRIXIE[@]}" download "mariadb-server-core=1:11.8.9+ds-0+deb13u1" \
    libc6/trixie libstdc++6/trixie libgcc-s1/trixie libssl3t64/trixie libaio1t64/trixie liburing2/trixie \
    libpcre2-8-0/trixie libsystemd0/trixie libnuma1/trixie libcrypt1/trixie zlib1g/trixie
  R=$WORK/11.8.9/root
  printf '#!/bin/sh\nexec %s --library-path %s "%s" "$@"\n' "$R/usr/lib64/ld-linux-x86-64.so.2" \
    "$R/usr/lib/x86_64-linux-gnu:$R/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu" "$R/usr/sbin/mariadbd" \
    > "$WORK/11.8.9/base/sbin/mariadbd"
  chmod +x "$WORK"/*/base/sbin/mariadbd
  chmod -R a+rX "$WORK"
  write_environment "$VERSIONS/environment.txt"
  echo "repetitions: $REPETITIONS, taking turns between the three servers" >> "$VERSIONS/environment.txt"
  common=(--db-driver=mysql --mysql-user=root --mysql-db=sbtest --tables=4 --table-size=20000)
  declare -A PIDS DIRS
  port=18640
  for version in 10.11.18 10.11.19 11.8.9; do
    port=$((port + 1))
    if [ "$version" = 10.11.19 ]; then
      MARIADBD=/usr/sbin/mariadbd; INSTALL_DB=(mariadb-install-db); SERVER_BASE=()
    else
      MARIADBD=$WORK/$version/base/sbin/mariadbd
      INSTALL_DB=("$WORK/$version/root/usr/bin/mariadb-install-db" --basedir="$WORK/$version/base")
      SERVER_BASE=(--basedir="$WORK/$version/base" --lc-messages-dir="$WORK/$version/base/share/mariadb")
    fi
    echo "server-$version: $($MARIADBD --version)" >> "$VERSIONS/environment.txt"
    PORT=$port SOCKET=/tmp/bench-sysbench-$port.sock start_server --innodb-flush-log-at-trx-commit=2
    PIDS[$version]=$SERVER_PID DIRS[$version]=$DATADIR
    sysbench oltp_read_write "${common[@]}" --mysql-socket=/tmp/bench-sysbench-$port.sock prepare >/dev/null
    mkdir -p "$VERSIONS/$version"
  done
  for rep in $(seq 1 "$REPETITIONS"); do
    for threads in 1 8; do
      port=18640
      for version in 10.11.18 10.11.19 11.8.9; do
        port=$((port + 1))
        echo "  versions rep $rep/$REPETITIONS, $threads threads, $version"
        sysbench oltp_read_write "${common[@]}" --mysql-socket=/tmp/bench-sysbench-$port.sock \
          --threads="$threads" --time="$SECONDS_PER_POINT" --report-interval=0 run \
          > "$VERSIONS/$version/threads-$(printf %03d "$threads")-rep-$rep.txt"
      done
    done
  done
  port=18640
  for version in 10.11.18 10.11.19 11.8.9; do
    port=$((port + 1))
    SOCKET=/tmp/bench-sysbench-$port.sock SERVER_PID=${PIDS[$version]} DATADIR=${DIRS[$version]} stop_server
  done
  echo "done: $VERSIONS"
  exit 0
fi

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
