#!/usr/bin/env bash
# The production smoke stage (see deploy/smoke.py): installs Debian's nginx when it is
# missing, then runs the reference deployment end to end. Needs PostgreSQL on
# 127.0.0.1:5432 (scripts/ensure-services.sh) and ports 18000-18099.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "[smoke] installing nginx"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  # Debian starts the packaged default site; the smoke stage runs its own nginx.
  if [ -f /run/nginx.pid ]; then kill "$(cat /run/nginx.pid)" || true; fi
fi
export PATH="$PATH:/usr/sbin"
exec .venv/bin/python deploy/smoke.py
