"""Client mistakes are warnings, not errors.

Django logs every ``SuspiciousOperation`` (``TooManyFieldsSent``, ``RequestDataTooBig``,
``DisallowedHost``…) on a ``django.security.*`` logger at ERROR with a traceback, and
every 503 on ``django.request`` at ERROR. Both are answered as designed (400, 503 with
Retry-After) and anyone on the internet can cause them, so they are written at WARNING
without a traceback: ERROR stays for the site's own faults. A filter on the handler,
because filters on a logger do not see records of its child loggers.
"""

import logging


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
