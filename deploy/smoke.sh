#!/usr/bin/env bash
# The production smoke stage (see deploy/smoke.py): installs Debian's nginx when it is
# missing, then runs the reference deployment end to end. Needs PostgreSQL on
# 127.0.0.1:5432 (scripts/ensure-services.sh) and ports 18000-18099.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/ensure-nginx.sh
export PATH="$PATH:/usr/sbin"
exec .venv/bin/python deploy/smoke.py
