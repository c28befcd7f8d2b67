#!/usr/bin/env bash
# The two-host smoke stage (see deploy/twohosts.py): two app hosts behind nginx, files in
# moto's S3 server, one beat (on host a). Installs nginx when missing; needs PostgreSQL on 127.0.0.1:5432 and ports 18100-18199.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/ensure-nginx.sh
export PATH="$PATH:/usr/sbin"
exec .venv/bin/python deploy/twohosts.py
