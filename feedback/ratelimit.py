"""The per-address limit on report posts: one counter per address and window, kept in
Redis (``core.cache.count_in_windows``) and counted in each process in between.

A process counts its own posts at once, and hands what it counted to Redis at most every
``FEEDBACK_RATE_LIMIT_SYNC_SECONDS`` (0, the default outside production: with every post),
in the post that finds the last hand-over that old and none under way; Redis answers each counter's total,
which brings in what the other processes counted. So a post is refused once its address's
total, as this process knows it, is over the limit: this process's own posts are all in
that total, the other processes' up to one interval late. On this endpoint, where a
report's other work is about a millisecond, a Redis round trip per post was about a
fifth of its time in the process (docs/PERFORMANCE.md). The rate has the same form as
django-ratelimit's (``300/m``, ``10/5m``) and the counters live in the same cache
(``RATELIMIT_USE_CACHE``) under the same prefix.

The counter is keyed on a keyed hash of the client's address (``core.client``), never on
the address itself, and it expires with its window; windows start at a different second
for each address, so that counters do not all start again at once. With Redis unreachable
the cache fails soft (``core.cache``) and the limit fails open: a report is worth more
than the limit.
"""

import functools
import hashlib
import hmac
import re
import threading
import time
from collections import Counter

from django.conf import settings

from core.cache import count_in_windows
from core.client import client_address

GROUP = "feedback-post"
RATE_RE = re.compile(r"(\d+)/(\d*)([smhd])")
SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"300/m"`` -> (300, 60); ``"10/5m"`` -> (10, 300)."""
    match = RATE_RE.fullmatch(rate)
    if match is None:
        raise ValueError(f"not a rate: {rate!r} (like 300/m or 10/5m)")
    count, multiple, unit = match.groups()
    return int(count), int(multiple or 1) * SECONDS[unit]


def address_key(request) -> str:
    return _keyed_hash(settings.SECRET_KEY, client_address(request))


@functools.lru_cache(maxsize=4096)  # a server posts again and again from one address
def _keyed_hash(secret: str, address: str) -> str:
    return hmac.new(secret.encode(), address.encode(), hashlib.sha256).hexdigest()


class WindowCounts:
    """This process's view of the counters: the totals Redis last answered, what is being
    handed over now, and what was counted since."""

    def __init__(self):
        self.lock = threading.Lock()
        self.known: dict[str, tuple[int, float]] = {}  # key -> (total, forget after)
        self.handing: Counter = Counter()
        self.unsent: Counter = Counter()
        self.handed_at = float("-inf")

    def total(self, key: str) -> int:
        return self.known.get(key, (0, 0.0))[0] + self.handing[key] + self.unsent[key]

    def count(self, key: str, lifetime: int, alias: str) -> int | None:
        """Count one post at ``key``; the total as this process knows it, or None when
        Redis could not be asked (the limit fails open)."""
        with self.lock:
            self.unsent[key] += 1
            now = time.monotonic()
            if self.handing or now - self.handed_at < settings.FEEDBACK_RATE_LIMIT_SYNC_SECONDS:
                return self.total(key)
            self.handing, self.unsent = self.unsent, Counter()
            self.handed_at = now
            batch = dict(self.handing)
        totals = None
        try:
            totals = count_in_windows(batch, lifetime, alias=alias)
        finally:  # whatever happened, the next post after the interval hands over again
            with self.lock:
                self.handing = Counter()
                if totals is not None:
                    self.known = {k: v for k, v in self.known.items() if v[1] > now}
                    for handed_key, handed_total in totals.items():
                        self.known[handed_key] = (handed_total, now + lifetime)
                total = None if totals is None else self.total(key)
        return total

    def forget(self):
        """Start again from nothing counted (for tests, after Redis is emptied)."""
        with self.lock:
            self.known.clear()
            self.unsent.clear()
            self.handing.clear()
            self.handed_at = float("-inf")


POSTS = WindowCounts()


def too_many_reports(request) -> bool:
    """Count this post against its address; True when the address is over the limit."""
    limit, period = parse_rate(settings.FEEDBACK_RATE_LIMIT)
    address = address_key(request)
    window = (int(time.time()) + int(address[:8], 16)) // period
    count = POSTS.count(f"rl:{GROUP}:{window}:{address}", period + 1, settings.RATELIMIT_USE_CACHE)
    return count is not None and count > limit
