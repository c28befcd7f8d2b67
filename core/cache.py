"""A Redis cache that degrades to "no cache" when Redis is unreachable.

The cache only ever holds copies (pages, summaries, rate-limit counters), so with
Redis down every read is a miss and every write is dropped, with a warning in the log
(at most one every ``QUIET_SECONDS`` per process) instead of a 500 on every page.
Rate limits counted in the cache fail open the same way: ``add`` fails, and
django-ratelimit's ``incr`` sees a missing key (``ValueError``), so the request counts
as the first of its window.
"""

import logging
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

UNAVAILABLE = (RedisError, OSError)
QUIET_SECONDS = 30


class FailSoftRedisCache(RedisCache):
    _last_warning = 0.0

    def _unavailable(self, operation: str, error: Exception) -> None:
        now = time.monotonic()
        if now - FailSoftRedisCache._last_warning >= QUIET_SECONDS:
            FailSoftRedisCache._last_warning = now
            logger.warning(
                "cache unavailable (%s: %s): serving without cache, rate limits fail open",
                operation,
                error.__class__.__name__,
            )

    def _soft(self, operation, fallback, *args, **kwargs):
        try:
            return getattr(super(), operation)(*args, **kwargs)
        except UNAVAILABLE as error:
            self._unavailable(operation, error)
            return fallback

    def add(self, *args, **kwargs):
        return self._soft("add", False, *args, **kwargs)

    def get(self, key, default=None, version=None):
        return self._soft("get", default, key, default, version)

    def set(self, *args, **kwargs):
        return self._soft("set", None, *args, **kwargs)

    def touch(self, *args, **kwargs):
        return self._soft("touch", False, *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._soft("delete", False, *args, **kwargs)

    def get_many(self, *args, **kwargs):
        return self._soft("get_many", {}, *args, **kwargs)

    def has_key(self, *args, **kwargs):
        return self._soft("has_key", False, *args, **kwargs)

    def set_many(self, data, *args, **kwargs):
        return self._soft("set_many", list(data), data, *args, **kwargs)

    def delete_many(self, *args, **kwargs):
        return self._soft("delete_many", None, *args, **kwargs)

    def clear(self):
        return self._soft("clear", False)

    def incr(self, key, delta=1, version=None):
        try:
            return super().incr(key, delta, version)
        except UNAVAILABLE as error:
            self._unavailable("incr", error)
            raise ValueError(f"Key '{key}' not found (cache unavailable)") from error
