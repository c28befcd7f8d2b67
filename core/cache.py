"""django-redis with a circuit breaker, so an unreachable or frozen Redis costs a page one
timeout at most per ``CACHE_BREAKER_SECONDS`` (kept: django-redis has no breaker, and its
``add`` answers None for "Redis unreachable", which allauth's rate-limit lock reads as
"someone else holds the lock" and then as "limited").

The cache only holds copies (pages, summaries, rate-limit counters). django-redis's
``IGNORE_EXCEPTIONS`` turns a Redis error into a miss or a dropped write. On its own that
still waits for the socket timeout on every call while Redis is frozen (a page makes
several calls); the breaker (the ``circuitbreaker`` package) remembers the failure, and
for ``CACHE_BREAKER_SECONDS`` every call fails at once without touching the network. The
first call after that interval tries Redis again.

Rate limits fail open: a failed ``add`` counts as done, so allauth's limits (sign-in,
sign-up, password reset), which take a lock with ``add`` first, let the request through,
and django-ratelimit, which starts each window's counter with ``add``, counts every
request as the first of its window (a failed ``incr`` answers None, which
``RATELIMIT_FAIL_OPEN`` also lets through). The log says so once when Redis goes away and
once when it is back (``core.outagelog``).
"""

import logging
import socket
import threading
import time
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from circuitbreaker import CircuitBreaker
from django.conf import settings
from django.core.cache import caches
from django_redis.cache import RedisCache, omit_exception
from django_redis.client import DefaultClient
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core import reads
from core.outagelog import OutageLog

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

# What django-redis's own commands take for "Redis did not answer".
REDIS_ERRORS = (RedisConnectionError, RedisTimeoutError, ResponseError, socket.timeout)
UNAVAILABLE_CONSEQUENCE = "serving without cache, rate limits fail open"


class RedisUnavailable(Exception):
    """The breaker is open: Redis failed less than CACHE_BREAKER_SECONDS ago."""


class RedisBreaker(CircuitBreaker):
    FAILURE_THRESHOLD = 1
    EXPECTED_EXCEPTION = ConnectionInterrupted

    def __init__(self, location: str) -> None:
        super().__init__(recovery_timeout=settings.CACHE_BREAKER_SECONDS, name=location)
        self.outage = OutageLog(logger, "cache", UNAVAILABLE_CONSEQUENCE)


_breakers: dict[str, RedisBreaker] = {}
_breakers_lock = threading.Lock()


def breaker_for(location: str) -> RedisBreaker:
    """One breaker per Redis per process, shared by every thread's cache connection."""
    breaker = _breakers.get(location)
    if breaker is None:
        with _breakers_lock:
            breaker = _breakers.setdefault(location, RedisBreaker(location))
    return breaker


def known_down(location: str) -> bool:
    """Whether the cache found this Redis unreachable moments ago (its breaker is open):
    the broker and the health check, often on the same Redis, need not wait for it too."""
    breaker = _breakers.get(location)
    return breaker is not None and bool(breaker.opened)


def _guarded(method: Callable[..., _T]) -> Callable[..., _T]:
    @wraps(method)
    def call(self: Any, *args: Any, **kwargs: Any) -> _T:
        breaker = self.breaker
        if breaker.opened:
            raise ConnectionInterrupted(connection=None) from RedisUnavailable("breaker open")
        try:
            with breaker:
                result = method(self, *args, **kwargs)
        except ConnectionInterrupted as error:
            breaker.outage.down(error.__cause__ or error)
            raise
        breaker.outage.up()
        return result

    return call


class CircuitBreakerClient(DefaultClient):
    """django-redis's client; every command first asks the breaker of its Redis."""

    def __init__(self, server: Any, params: dict[str, Any], backend: Any) -> None:
        super().__init__(server, params, backend)
        self.breaker = breaker_for(",".join(self._server))


GUARDED_COMMANDS = (
    "add",
    "clear",
    "decr",
    "delete",
    "delete_many",
    "delete_pattern",
    "expire",
    "get",
    "get_many",
    "has_key",
    "incr",
    "incr_version",
    "keys",
    "persist",
    "set",
    "set_many",
    "touch",
    "ttl",
)
for _name in GUARDED_COMMANDS:
    setattr(CircuitBreakerClient, _name, _guarded(getattr(DefaultClient, _name)))


def _remember_recent(self: Any, index: str, member: str, when: float, cap: int) -> None:
    """Add ``member`` to the sorted set ``index`` scored ``when``; keep the newest ``cap``."""
    client = self.get_client(write=True)
    try:
        pipeline = client.pipeline(transaction=False)
        key = self.make_key(index)
        pipeline.zadd(key, {member: when})
        pipeline.zremrangebyrank(key, 0, -cap - 1)
        pipeline.execute()
    except REDIS_ERRORS as error:
        raise ConnectionInterrupted(connection=client) from error


def _recent(self: Any, index: str, since: float) -> list[str]:
    client = self.get_client(write=False)
    try:
        found = client.zrevrangebyscore(self.make_key(index), "+inf", since)
    except REDIS_ERRORS as error:
        raise ConnectionInterrupted(connection=client) from error
    return [m.decode() if isinstance(m, bytes) else m for m in found]


def _count(self: Any, key: str, timeout: int) -> int:
    """Add one to the counter at ``key`` and keep it ``timeout`` seconds: one round trip."""
    client = self.get_client(write=True)
    try:
        pipeline = client.pipeline(transaction=False)
        key = self.make_key(key)
        pipeline.incr(key)
        pipeline.expire(key, timeout)
        count, _ = pipeline.execute()
    except REDIS_ERRORS as error:
        raise ConnectionInterrupted(connection=client) from error
    return int(count)


CircuitBreakerClient.remember_recent = _guarded(_remember_recent)
CircuitBreakerClient.recent = _guarded(_recent)
CircuitBreakerClient.count = _guarded(_count)


class FailOpenRedisCache(RedisCache):
    def get(self, *args: Any, **kwargs: Any) -> Any:
        reads.note_cache_read()  # a page built from a kept value: any table may be in it
        return super().get(*args, **kwargs)

    def get_many(self, *args: Any, **kwargs: Any) -> Any:
        reads.note_cache_read()
        return super().get_many(*args, **kwargs)

    @omit_exception  # type: ignore[untyped-decorator]  # django-redis ships no types
    def remember_recent(self, index: str, member: str, when: float, cap: int) -> None:
        self.client.remember_recent(index, member, when, cap)

    @omit_exception  # type: ignore[untyped-decorator]  # django-redis ships no types
    def recent(self, index: str, since: float) -> list[str] | None:
        found: list[str] = self.client.recent(index, since)
        return found

    @omit_exception  # type: ignore[untyped-decorator]  # django-redis ships no types
    def count(self, key: str, timeout: int) -> int | None:
        counted: int = self.client.count(key, timeout)
        return counted

    def add(self, *args: Any, **kwargs: Any) -> Any:
        stored = super().add(*args, **kwargs)
        return True if stored is None else stored  # None: Redis unreachable (ignored error)


def count(key: str, timeout: int, alias: str = "default") -> int | None:
    """Add one to the counter at ``key``, which lives ``timeout`` seconds from its last
    count; the count so far, or None when the cache cannot count (Redis unreachable: a
    rate limit lets the request through). One round trip to Redis, where django-ratelimit
    takes two (``add``, then ``incr``); elsewhere (development's local memory) the
    cache's own ``add`` and ``incr``."""
    backend = caches[alias]
    if isinstance(backend, FailOpenRedisCache):
        counted: int | None = backend.count(key, timeout)
        return counted
    if backend.add(key, 1, timeout):
        return 1
    try:
        return int(backend.incr(key))
    except ValueError:  # expired between the two
        backend.add(key, 1, timeout)
        return 1


# --- Recently seen names, newest first (the edge cache's keys: core.edge) ----------------


def _redis() -> "FailOpenRedisCache | None":
    backend = caches["default"]
    return backend if isinstance(backend, FailOpenRedisCache) else None


def remember_recent(index: str, member: str, cap: int) -> None:
    """Note that ``member`` was seen now, in a set of at most ``cap`` newest members; a
    note that finds no Redis (unreachable, or the local memory of development) is lost."""
    redis = _redis()
    if redis is not None:
        redis.remember_recent(index, member, time.time(), cap)


def recent(index: str, since: float) -> list[str] | None:
    """The members seen at or after ``since`` (a Unix time), newest first; None when
    Redis cannot be read."""
    redis = _redis()
    if redis is None:
        return []
    found: list[str] | None = redis.recent(index, since)
    return found
