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
import math
import socket
import threading
import time
from collections import Counter
from functools import wraps

from circuitbreaker import CircuitBreaker
from django.conf import settings
from django.core.cache import caches
from django_redis.cache import RedisCache, omit_exception
from django_redis.client import DefaultClient
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from core.outagelog import OutageLog

logger = logging.getLogger(__name__)

# What django-redis's own commands take for "Redis did not answer".
REDIS_ERRORS = (RedisConnectionError, RedisTimeoutError, ResponseError, socket.timeout)
UNAVAILABLE_CONSEQUENCE = "serving without cache, rate limits fail open"


class RedisUnavailable(Exception):
    """The breaker is open: Redis failed less than CACHE_BREAKER_SECONDS ago."""


class RedisBreaker(CircuitBreaker):
    FAILURE_THRESHOLD = 1
    EXPECTED_EXCEPTION = ConnectionInterrupted

    def __init__(self, location: str):
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
    return breaker is not None and breaker.opened


def forget_breakers() -> None:
    """Start again as if every Redis had always answered (for tests)."""
    with _breakers_lock:
        _breakers.clear()


def _guarded(method):
    @wraps(method)
    def call(self, *args, **kwargs):
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

    def __init__(self, server, params, backend):
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


# Adds a count to a window's counter, and gives a new counter its lifetime: one command,
# atomic in Redis (a counter never lives on without its expiry).
COUNT_IN_WINDOW_SCRIPT = """
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count
"""
_scripts: dict[int, object] = {}


def _count_in_windows(self, counts: dict[str, int], timeout: int) -> dict[str, int]:
    """Add each count to the counter at its key (kept ``timeout`` seconds from its first
    count); the totals. One command for one key (a script Redis keeps by its digest:
    EVALSHA), one pipeline for several."""
    client = self.get_client(write=True)
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts.setdefault(id(client), client.register_script(COUNT_IN_WINDOW_SCRIPT))
    keys = list(counts)
    try:
        if len(keys) == 1:
            totals = [script(keys=[self.make_key(keys[0])], args=[timeout, counts[keys[0]]])]
        else:
            pipeline = client.pipeline(transaction=False)
            for key in keys:
                script(keys=[self.make_key(key)], args=[timeout, counts[key]], client=pipeline)
            totals = pipeline.execute()
    except REDIS_ERRORS as error:
        raise ConnectionInterrupted(connection=client) from error
    return dict(zip(keys, totals, strict=True))


CircuitBreakerClient.count_in_windows = _guarded(_count_in_windows)


class FailOpenRedisCache(RedisCache):
    def add(self, *args, **kwargs):
        stored = super().add(*args, **kwargs)
        return True if stored is None else stored  # None: Redis unreachable (ignored error)

    @omit_exception
    def count_in_windows(self, counts: dict[str, int], timeout: int) -> dict[str, int] | None:
        return self.client.count_in_windows(counts, timeout)


def count_in_windows(
    counts: dict[str, int], timeout: int, alias: str = "default"
) -> dict[str, int] | None:
    """Add each count to its counter, a counter that lives ``timeout`` seconds from its
    first count; the totals so far, or None when the cache cannot count (Redis
    unreachable: callers limiting a rate let the request through). One round trip to
    Redis; elsewhere (the local-memory cache of development) the cache's own add and incr."""
    cache = caches[alias]
    if isinstance(cache, FailOpenRedisCache):
        return cache.count_in_windows(counts, timeout)
    totals = {}
    for key, count in counts.items():
        cache.add(key, 0, timeout)
        try:
            totals[key] = cache.incr(key, count)
        except ValueError:  # expired between the two calls
            cache.add(key, count, timeout)
            totals[key] = count
    return totals


# --- Counters kept in Redis and moved into the database later ----------------------------
#
# A request that counts something (a download) adds one to a counter in this process;
# the process adds its counters to Redis at most every TALLY_BUFFER_SECONDS (0: at once),
# in the request that finds the last hand-over that old, and when the worker exits
# (config/gunicorn.py). So a hot URL costs no Redis round trip per request; a worker
# killed outright loses at most its last interval's counts.


class _Buffered:
    lock = threading.Lock()
    counts: Counter = Counter()
    handed_at = -math.inf


def _redis():
    backend = caches["default"]
    return backend if isinstance(backend, RedisCache) else None


def tally(key: str, keep_seconds: int) -> list[tuple[str, int]]:
    """Count one at ``key`` (a Redis counter kept ``keep_seconds`` from its first count).
    Answers the counts that found no Redis to go to (unreachable, or the local-memory
    cache of development), which the caller must count elsewhere; usually none."""
    with _Buffered.lock:
        _Buffered.counts[key] += 1
        if time.monotonic() - _Buffered.handed_at < settings.TALLY_BUFFER_SECONDS:
            return []
        counts = _take_buffered()
    return _hand_to_redis(counts, keep_seconds)


def hand_over_tallies(keep_seconds: int) -> list[tuple[str, int]]:
    """Add this process's counts to Redis now (at exit); answers those that found none."""
    with _Buffered.lock:
        counts = _take_buffered()
    return _hand_to_redis(counts, keep_seconds)


def _take_buffered() -> Counter:
    counts, _Buffered.counts = _Buffered.counts, Counter()
    _Buffered.handed_at = time.monotonic()
    return counts


def _hand_to_redis(counts: Counter, keep_seconds: int) -> list[tuple[str, int]]:
    redis = _redis()
    if redis is None:
        return list(counts.items())
    left = []
    for key, count in counts.items():
        total = redis.incr(key, count, ignore_key_check=True)  # None: Redis unreachable
        if total is None:
            left.append((key, count))
        elif total == count:
            redis.expire(key, keep_seconds)
    return left


def tally_keys(pattern: str) -> list[str]:
    """The counters in Redis whose keys match ``pattern`` (a glob); none without Redis."""
    redis = _redis()
    return list(redis.iter_keys(pattern)) if redis is not None else []


def take_from_tally(key: str, count: int) -> None:
    """Lower a counter by what was moved elsewhere (negative: give it back)."""
    redis = _redis()
    if redis is not None:
        redis.incr(key, -count, ignore_key_check=True)
