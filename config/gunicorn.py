"""gunicorn settings: `gunicorn -c config/gunicorn.py config.wsgi`.

Threaded workers serve concurrent requests in each process; for the feedback endpoint
their commits share WAL flushes through PostgreSQL's commit_delay
(deploy/postgresql/portal.conf).
"""

import logging
import os
import sys

from gunicorn.glogging import Logger

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from core.logredact import (  # after the path: gunicorn loads this file alone
    RedactingFormatter,
    RedactSecretsFilter,
)

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
timeout = 30
graceful_timeout = 20
# Request lines: no limit of gunicorn's own (its largest is 8,190 bytes, short of an 8 KB
# address with "GET" and "HTTP/1.1" around it); nginx in front takes at most 16 KB
# (large_client_header_buffers in deploy/nginx/portal-locations.conf), and gunicorn listens
# on 127.0.0.1 only.
limit_request_line = 0
# No access log by default: nginx in front logs every request, without client addresses
# (deploy/nginx/portal.conf, log_format portal_private), and formatting a second line per
# request cost the feedback endpoint about a twentieth of its throughput
# (docs/PERFORMANCE.md). GUNICORN_ACCESS_LOG=- writes one to stdout, without addresses
# either (feedback reports are anonymous).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
access_log_format = '%(t)s "%(r)s" %(s)s %(b)s %(L)ss'
# Only nginx on this host may set X-Forwarded-Proto for gunicorn (Django reads the
# client address through TRUSTED_PROXIES, see core/client.py).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")


class PrivateLogger(Logger):
    """gunicorn's logger without client addresses ("Invalid request from ip=...") or
    URL secrets (password-reset keys) in its error and access logs."""

    def setup(self, cfg):
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            log.addFilter(RedactSecretsFilter())
            for handler in log.handlers:  # the whole line, exception texts included
                handler.setFormatter(RedactingFormatter(handler.formatter or logging.Formatter()))


logger_class = PrivateLogger
