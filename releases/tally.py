"""Download counters kept in Redis and moved into the database later (releases.downloads).

A request that counts something (a download) adds one to a counter in this process;
the process adds its counters to Redis at most every TALLY_BUFFER_SECONDS (0: at once),
in the request that finds the last hand-over that old, and when the process exits (an
``atexit`` hook that releases' AppConfig registers, which gunicorn's workers run as they
stop). So a hot URL costs no Redis round trip per request; a worker killed outright loses
at most its last interval's counts.
"""

import math
import threading
import time
from collections import Counter

from django.conf import settings
from django.core.cache import caches
from django_redis.cache import RedisCache


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
