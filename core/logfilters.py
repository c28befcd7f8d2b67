"""Client mistakes are warnings, not errors, and a flood of them is a few lines.

Django logs every ``SuspiciousOperation`` (``TooManyFieldsSent``, ``RequestDataTooBig``,
``DisallowedHost``…) on a ``django.security.*`` logger at ERROR with a traceback, and
every 503 on ``django.request`` at ERROR. Both are answered as designed (400, 503 with
Retry-After) and anyone on the internet can cause them, so they are written at WARNING
without a traceback: ERROR stays for the site's own faults. A filter on the handler,
because filters on a logger do not see records of its child loggers.
"""

import atexit
import logging
import threading


def _downgrade(record: logging.LogRecord) -> None:
    record.levelno, record.levelname = logging.WARNING, "WARNING"
    record.exc_info, record.exc_text, record.stack_info = None, None, None


class ExpectedClientErrorsFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING and (
            record.name.startswith("django.security.")
            or (record.name == "django.request" and getattr(record, "status_code", None) == 503)
        ):
            _downgrade(record)
        return True


# --- Answers refused or unavailable: counted, one line per interval ------------------------

SUMMARY_LOGGER = "core.requests"
# The routes a summary line names one by one (the most frequent); the rest are summed.
SUMMARY_ROUTES = 10


def _route(record: logging.LogRecord) -> str:
    """The URL pattern the request matched (``donate/manage/<str:token>/``: no value of
    the request's own), or "(no route)"."""
    match = getattr(getattr(record, "request", None), "resolver_match", None)
    return match.route if match is not None and match.route else "(no route)"


class ClientErrorCounts(logging.Filter):
    """django.request writes a line for every answer of 400 or more and django.security one
    for every refused request: a flood of 404s, a scanner or a database outage (503s)
    wrote a hundred lines a second. These are counted per status (or security logger) and
    route instead, and written as one line every ``interval_seconds`` that had any (logger
    ``core.requests``, WARNING, with the counts in ``counts``). The site's own faults
    (500 and other 5xx but 503) are still written one by one, with their traceback.

    A filter on the handler (filters on a logger do not see its children's records); the
    line is written by a timer thread at the end of the interval, so the counts of a flood
    that stopped are not held back until the next one."""

    def __init__(self, interval_seconds: float = 10.0, logger: str = SUMMARY_LOGGER) -> None:
        super().__init__()
        self.interval_seconds = interval_seconds
        self.summary_logger = logger
        self._counts: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        atexit.register(self._flush_at_exit)

    def filter(self, record: logging.LogRecord) -> bool:
        kind = self._kind(record)
        if kind is None or self.interval_seconds <= 0:
            return True
        with self._lock:
            key = (kind, _route(record))
            self._counts[key] = self._counts.get(key, 0) + 1
            if self._timer is None:
                self._timer = threading.Timer(self.interval_seconds, self.flush)
                self._timer.daemon = True
                self._timer.start()
        return False

    @staticmethod
    def _kind(record: logging.LogRecord) -> str | None:
        """What the line is counted as ("404", "503", "django.security.DisallowedHost"), or
        None for a line written as it is."""
        if record.name.startswith("django.security."):
            return record.name
        status = getattr(record, "status_code", None)
        refused = isinstance(status, int) and (400 <= status < 500 or status == 503)
        return str(status) if record.name == "django.request" and refused else None

    def _flush_at_exit(self) -> None:
        """A process that stops writes what it counted; a stream already closed by then
        (a test runner's capture) costs nothing but that line."""
        logging.raiseExceptions = False
        self.flush()

    def flush(self) -> None:
        """Write the line for the counts so far (the timer calls it; also at exit)."""
        with self._lock:
            counts, self._counts, self._timer = self._counts, {}, None
        if not counts:
            return
        ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        shown = ", ".join(
            f"{kind} × {count:,} on {route}" for (kind, route), count in ordered[:SUMMARY_ROUTES]
        )
        others = sum(count for _, count in ordered[SUMMARY_ROUTES:])
        logging.getLogger(self.summary_logger).warning(
            "%s answers refused or unavailable in the last %s s: %s%s",
            f"{sum(counts.values()):,}",
            f"{self.interval_seconds:g}",
            shown,
            f", and {others:,} on other routes" if others else "",
            extra={
                "counts": [
                    {"kind": kind, "route": route, "count": count}
                    for (kind, route), count in ordered
                ]
            },
        )
