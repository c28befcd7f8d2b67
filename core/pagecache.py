"""Lookups kept in Redis until content changes: what the edge cannot keep, but pays.

Pages and read APIs are kept by the edge (nginx, ``core.edge``). A few hot answers cannot
be kept whole, such as the download redirect, whose mirror follows the client's country
and whose every request is counted; their lookups are kept here instead, with
``kept_with_content(name, build)``: the value is stored under a site-wide *content
generation* (a token in Redis), which ``content_changed`` discards whenever something
public pages show is saved (``core.edge.watch``), so the next request builds it anew. A
process also keeps what it read for ``PAGE_CACHE_LOCAL_SECONDS`` without asking Redis.
The generation expires after ``PAGE_CACHE_TIMEOUT`` at the latest, which bounds a discard
lost while Redis was unreachable. Any error reading or writing means the value is built.
"""

import hashlib
import logging
import math
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed

logger = logging.getLogger(__name__)

GENERATION_KEY = "pagecache:generation"
VALUE_KEY_PREFIX = "pagecache:value"
LOCAL_MAX_VALUES = 500
WARNING_QUIET_SECONDS = 30


class _Warned:
    at = -math.inf


def _warn_unavailable(operation: str, error: Exception) -> None:
    """One line per process every WARNING_QUIET_SECONDS, not one per request."""
    now = time.monotonic()
    if now - _Warned.at >= WARNING_QUIET_SECONDS:
        _Warned.at = now
        logger.warning(
            "kept lookups: %s failed (%s): built uncached", operation, type(error).__name__
        )


class _LastSeen:
    """The generation this process saw last, when, and the values it read under it."""

    generation = ""
    checked_at = -math.inf
    values: dict[str, tuple[str, dict[str, Any] | None, float]] = {}

    @classmethod
    def forget(cls) -> None:
        cls.generation, cls.checked_at, cls.values = "", -math.inf, {}


def content_changed(**kwargs: Any) -> None:
    """Values kept before now are stale: the next request builds them again."""
    _LastSeen.forget()
    try:
        cache.delete(GENERATION_KEY)
    except Exception as error:
        _warn_unavailable("discard", error)


def connect_signals() -> None:
    """Tests change settings that lookups depend on."""
    setting_changed.connect(content_changed, dispatch_uid="pagecache:settings")


def _value_key(generation: str, address: str) -> str:
    return f"{VALUE_KEY_PREFIX}:{generation}:{address}"


def _lookup(address: str) -> tuple[str, dict[str, Any] | None]:
    """The current generation, and the value stored at this address under it."""
    now = time.monotonic()
    fresh = settings.PAGE_CACHE_LOCAL_SECONDS
    local = _LastSeen.values.get(address)
    if (
        now - _LastSeen.checked_at < fresh
        and local is not None
        and local[0] == _LastSeen.generation
        and now - local[2] < fresh
    ):
        return local[0], local[1]
    guessed = _value_key(_LastSeen.generation, address)
    found = cache.get_many([GENERATION_KEY, guessed])
    current = found.get(GENERATION_KEY)
    if current is None:
        cache.add(GENERATION_KEY, str(time.time_ns()), timeout=settings.PAGE_CACHE_TIMEOUT)
        current = cache.get(GENERATION_KEY) or str(time.time_ns())
    _LastSeen.checked_at = now
    if current == _LastSeen.generation:
        stored = found.get(guessed)
    else:
        _LastSeen.generation, _LastSeen.values = current, {}
        stored = cache.get(_value_key(current, address))
    if stored is not None:
        _remember(address, current, stored)
    return current, stored


def _remember(address: str, generation: str, stored: dict[str, Any]) -> None:
    if settings.PAGE_CACHE_LOCAL_SECONDS <= 0:
        return
    if len(_LastSeen.values) >= LOCAL_MAX_VALUES:
        _LastSeen.values = {}
    _LastSeen.values[address] = (generation, stored, time.monotonic())


def content_since() -> float:
    """When the content generation started (Unix time): nothing a public page shows was
    saved after it, so it serves as a shared page's Last-Modified. Now when Redis cannot
    be read."""
    if settings.PAGE_CACHE_TIMEOUT > 0:
        try:
            generation, _ = _lookup("since")
            return int(generation) / 1e9
        except Exception as error:
            _warn_unavailable("read", error)
    return time.time()


def kept_with_content(name: str, build: Callable[[], object]) -> object:
    """``build()``, kept under the content generation: one round trip to Redis at most
    per call (none within PAGE_CACHE_LOCAL_SECONDS); built each time if Redis is
    unreachable or PAGE_CACHE_TIMEOUT is 0. The value must pickle; None is kept too."""
    if settings.PAGE_CACHE_TIMEOUT <= 0:
        return build()
    address = hashlib.blake2b(name.encode(), digest_size=16).hexdigest()
    try:
        generation, stored = _lookup(address)
    except Exception as error:
        _warn_unavailable("read", error)
        return build()
    if stored is not None:
        return stored["value"]
    value = build()
    entry = {"value": value}
    try:
        cache.set(_value_key(generation, address), entry, timeout=settings.PAGE_CACHE_TIMEOUT)
    except Exception as error:
        _warn_unavailable("write", error)
    else:
        _remember(address, generation, entry)
    return value
