"""Keep client addresses and URL secrets out of the logs.

Used by the logging configuration (a filter on every handler) and by gunicorn's
logger (config/gunicorn.py). Imports nothing from Django: gunicorn's master loads it
before any application.

- Secrets in URLs: password-reset keys, e-mail confirmation keys and sponsor
  invitation tokens are replaced by ``[redacted]`` wherever a path is logged, also
  URL-encoded in a ``?next=`` parameter.
- Addresses: gunicorn's "Invalid request from ip=..." warnings lose the address.
"""

import logging
import re

SLASH = r"(?:/|%2[Ff])"  # also inside ?next= parameters, where slashes are encoded
SECRET_PATH = re.compile(
    rf"({SLASH}(?:accounts{SLASH}password{SLASH}reset{SLASH}key|accounts{SLASH}confirm-email"
    rf"|sponsors{SLASH}invitations){SLASH})(?!done/)(?:(?!%2[Ff])[^/\s?&#\"'])+"
)
GUNICORN_ADDRESS = re.compile(r" from ip=\S+?(?=:\s|$)")


def redact(text: str) -> str:
    return GUNICORN_ADDRESS.sub("", SECRET_PATH.sub(r"\1[redacted]", text))


def _redact_arg(value):
    return redact(value) if isinstance(value, str) else value


class RedactSecretsFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(arg) for arg in record.args)
        elif isinstance(record.args, dict):  # in place: gunicorn's access atoms are a dict subclass
            for key, value in list(record.args.items()):
                record.args[key] = _redact_arg(value)
        return True
