#!/usr/bin/env bash
# Make sure the services the test suite talks to are up, and the system
# packages it drives are installed. Safe to run again; starts only what is down.
set -euo pipefail

log() { printf '[services] %s\n' "$*"; }

need_packages=()
command -v chromium-headless-shell >/dev/null 2>&1 || need_packages+=(chromium-headless-shell)
command -v faketime >/dev/null 2>&1 || need_packages+=(faketime)
command -v sysbench >/dev/null 2>&1 || need_packages+=(sysbench)
if [ ${#need_packages[@]} -gt 0 ]; then
  log "installing ${need_packages[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_packages[@]}" >/dev/null
fi

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  log "starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
pg_isready -h 127.0.0.1 -p 5432 -q && log "PostgreSQL is up"

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  log "starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 1; done
fi
redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null && log "Redis is up"

if ! mariadb-admin -uroot --protocol=tcp -h 127.0.0.1 -P 3306 ping >/dev/null 2>&1; then
  log "starting MariaDB"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd
  for _ in $(seq 1 30); do
    mariadb-admin -uroot --protocol=tcp -h 127.0.0.1 -P 3306 ping >/dev/null 2>&1 && break; sleep 1
  done
fi
mariadb-admin -uroot --protocol=tcp -h 127.0.0.1 -P 3306 ping >/dev/null 2>&1 && log "MariaDB is up"
