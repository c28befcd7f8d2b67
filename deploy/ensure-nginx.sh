#!/usr/bin/env bash
# Installs Debian's nginx when it is missing (the smoke stages run their own nginx).
set -euo pipefail
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "[smoke] installing nginx"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  # Debian starts the packaged default site; the smoke stage runs its own nginx.
  if [ -f /run/nginx.pid ]; then kill "$(cat /run/nginx.pid)" || true; fi
fi
