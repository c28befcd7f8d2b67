#!/usr/bin/env bash
# Installs Debian's nginx and its cache-purge module when missing (the smoke stages run
# their own nginx; production loads the module from /etc/nginx/modules-enabled).
set -euo pipefail
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  echo "[smoke] installing nginx"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
  # Debian starts the packaged default site; the smoke stage runs its own nginx.
  if [ -f /run/nginx.pid ]; then kill "$(cat /run/nginx.pid)" || true; fi
fi
# The edge cache's purge endpoint (deploy/nginx/portal.conf: proxy_cache_purge).
if [ ! -f /usr/lib/nginx/modules/ngx_http_cache_purge_module.so ]; then
  echo "[smoke] installing nginx's cache purge module"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libnginx-mod-http-cache-purge >/dev/null
  if [ -f /run/nginx.pid ]; then kill "$(cat /run/nginx.pid)" || true; fi
fi
