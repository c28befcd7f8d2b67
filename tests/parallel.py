"""Isolation of parallel test workers (pytest-xdist), loaded early with ``-p tests.parallel``
(see ``addopts`` in pyproject.toml), before Django reads its settings.

pytest-django already gives each worker its own PostgreSQL test database
(``test_<name>_gw0``, ``test_<name>_gw1``, ...). This plugin does the same for Redis:
worker ``gwN`` uses database ``base + N`` of the Redis in ``REDIS_URL`` (base 0 in
``redis://127.0.0.1:6379/0``), so the cache (which tests clear with FLUSHDB), the rate
limits, the page cache and the Celery broker of one worker never see another's keys.
``os.environ`` is rewritten, so settings, and every subprocess a test starts (a Celery
worker, gunicorn), inherit the worker's own database.

The rules for writing a test that runs in parallel are in docs/testing.md.
"""

import os
import re

REDIS_DATABASES = 16  # Redis's default "databases" setting


def worker_index() -> int | None:
    """0 for xdist worker gw0, 1 for gw1, ...; None outside xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    match = re.fullmatch(r"gw(\d+)", worker)
    return int(match.group(1)) if match else None


def redis_url_for_worker(url: str, index: int) -> str:
    """The same Redis, database ``base + index`` (the base is the URL's path, default 0)."""
    match = re.fullmatch(r"(?P<server>[a-z+]+://[^/?#]*)(?:/(?P<db>\d*))?(?P<rest>[?#].*)?", url)
    if not match:
        raise ValueError(f"REDIS_URL {url!r} is not a redis://host:port/db address")
    database = int(match.group("db") or 0) + index
    if database >= REDIS_DATABASES:
        raise ValueError(
            f"worker gw{index} would use Redis database {database} of {url!r}; "
            f"Redis has {REDIS_DATABASES}: lower the base database or the number of workers"
        )
    return f"{match.group('server')}/{database}{match.group('rest') or ''}"


def _isolate_worker() -> None:
    index = worker_index()
    if index is None:
        return
    for name in ("REDIS_URL", "CELERY_BROKER_URL"):
        url = os.environ.get(name, "")
        if url.startswith(("redis://", "rediss://")):
            os.environ[name] = redis_url_for_worker(url, index)


_isolate_worker()
