"""Keep client addresses and URL secrets out of the logs.

Used by the logging configuration (``RedactingFormatter`` around every handler's
formatter: the whole line is redacted, whatever the formatter put in it: JSON extras such
as Django's ``request`` object, exception texts) and by gunicorn's logger
(config/gunicorn.py). Imports nothing from Django: gunicorn's master loads it before any
application.

- Secrets in URLs: the path segment after a secret-bearing prefix (the accounts'
  password-reset and e-mail confirmation keys, and the prefixes apps register with
  ``redact_after`` from their ``AppConfig.ready()``) is replaced by ``[redacted]``
  wherever a path is logged, also URL-encoded in a ``?next=`` parameter; so is the value
  of a query parameter apps register with ``redact_query`` (a donor's ``?gift=``).
- Addresses: gunicorn's "Invalid request from ip=..." warnings lose the address.

The same list of prefixes and parameters is nginx's: deploy/nginx/portal-redact.conf is
written from it (``nginx_map``, ``manage.py write_nginx_redaction``), and
tests/core/test_logging.py fails when the file differs from what the registry makes.

Apps register in each process that loads Django (gunicorn's workers, where requests are
logged); gunicorn's master, which serves no request, knows only the accounts' prefixes.
"""

import importlib
import logging
import re
from typing import Any

SLASH = r"(?:/|%2[Ff])"  # also inside ?next= parameters, where slashes are encoded
# The accounts' links (allauth's, under core's account pages) that carry a key.
_secret_prefixes: list[str] = ["/accounts/password/reset/key/", "/accounts/confirm-email/"]


def _secret_path(prefixes: list[str]) -> re.Pattern[str]:
    alternatives = "|".join(
        SLASH.join(re.escape(part) for part in prefix.strip("/").split("/")) for prefix in prefixes
    )
    return re.compile(rf"({SLASH}(?:{alternatives}){SLASH})(?!done/)(?:(?!%2[Ff])[^/\s?&#\"'])+")


SECRET_PATH = _secret_path(_secret_prefixes)
GUNICORN_ADDRESS = re.compile(r" from ip=\S+?(?=:\s|$)")


def redact_after(*prefixes: str) -> None:
    """The path segment after each of ``prefixes`` (a path such as an invitation's, up to
    its token) is a secret: logged paths show ``[redacted]`` in its place."""
    global SECRET_PATH
    _secret_prefixes.extend(p for p in prefixes if p not in _secret_prefixes)
    SECRET_PATH = _secret_path(_secret_prefixes)


# Query parameters whose value is a secret (apps register them with ``redact_query``):
# also URL-encoded inside a ?next= parameter ("%3Fgift%3D...").
_secret_parameters: list[str] = []
SECRET_QUERY: re.Pattern[str] | None = None


def redact_query(*names: str) -> None:
    """The value of each query parameter in ``names`` (a donor's ``?gift=`` token) is a
    secret: logged URLs show ``[redacted]`` in its place."""
    global SECRET_QUERY
    _secret_parameters.extend(n for n in names if n not in _secret_parameters)
    alternatives = "|".join(re.escape(name) for name in _secret_parameters)
    SECRET_QUERY = re.compile(
        rf"((?:[?&]|%3[Ff]|%26)(?:{alternatives})(?:=|%3[Dd]))(?:(?!%26)[^&\s#\"'])+"
    )


def redact(text: str) -> str:
    text = SECRET_PATH.sub(r"\1[redacted]", text)
    if SECRET_QUERY is not None:
        text = SECRET_QUERY.sub(r"\1[redacted]", text)
    return GUNICORN_ADDRESS.sub("", text)


def _redact_arg(value: object) -> object:
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


class RedactingFormatter(logging.Formatter):
    """Another formatter's lines with URL secrets and client addresses redacted: every
    field of the line (the message, JSON extras such as the ``request`` object, an
    exception's text), whatever the formatter wrote."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return redact(self.inner.format(record))


def redacting(formatter: str = "logging.Formatter", **options: Any) -> RedactingFormatter:
    """For ``LOGGING["formatters"]``: ``{"()": "core.logredact.redacting", "formatter":
    "pythonjsonlogger.json.JsonFormatter", **its options}``."""
    module, _, name = formatter.rpartition(".")
    formatter_class = getattr(importlib.import_module(module), name)
    return RedactingFormatter(formatter_class(**options))


# --- nginx's copy of the list ---------------------------------------------------------------

NGINX_SLASH = "(?:/|%2F)"


def _nginx_escape(text: str) -> str:
    """``re.escape`` without escaping "-" (nginx's quoted strings keep the backslash, PCRE
    needs none outside a class)."""
    return re.escape(text).replace("\\-", "-")


def nginx_map() -> str:
    """deploy/nginx/portal-redact.conf: nginx's ``map`` from ``$request_uri`` to the address
    its access log writes, with the secrets of the registered prefixes and parameters
    replaced by ``[redacted]`` (the rest of such an address is dropped)."""
    prefixes = "|".join(
        NGINX_SLASH.join(_nginx_escape(part) for part in prefix.strip("/").split("/"))
        for prefix in _secret_prefixes
    )
    lines = [
        "# Written by `manage.py write_nginx_redaction` from core.logredact's registry (the",
        "# prefixes and query parameters apps register from AppConfig.ready()); do not edit:",
        "# tests/core/test_logging.py fails when this file differs from the registry.",
        "# Included by portal.conf: the access log's address, without the secrets some URLs",
        "# carry, also inside a ?next= parameter (slashes encoded as %2F).",
        "map $request_uri $portal_loggable_uri {",
        f'    "~*^(?<secret_prefix>.*?{NGINX_SLASH}(?:{prefixes}){NGINX_SLASH})(?!done/)[^/?&%]"'
        ' "${secret_prefix}[redacted]";',
    ]
    if _secret_parameters:
        names = "|".join(re.escape(name) for name in _secret_parameters)
        lines.append(
            f'    "~*^(?<secret_query>[^?]*\\?(?:.*?(?:&|%26|%3F))?(?:{names})(?:=|%3D))"'
            ' "${secret_query}[redacted]";'
        )
    lines += ["    default $request_uri;", "}", ""]
    return "\n".join(lines)
