"""A version number for everything cached from the rollups: bumped when they change."""

from typing import cast

from django.core.cache import cache

CACHE_VERSION_KEY = "trends:version"


def bump_cache_version():
    try:
        cache.incr(CACHE_VERSION_KEY)
    except ValueError:
        cache.set(CACHE_VERSION_KEY, 1, timeout=None)


def cache_version() -> int:
    return cast(int, cache.get_or_set(CACHE_VERSION_KEY, 1, timeout=None))
