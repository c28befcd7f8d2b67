"""The per-address limit on report posts: one counter per address and window in the
cache, counted in one Redis round trip per report (``core.cache.count_in_window``).

django-ratelimit, which limits the site's forms, takes two round trips per request
(``add``, then an ``incr`` script); on this endpoint, where a request's other work is a
fraction of a millisecond, that was a third of a busy worker's time (docs/PERFORMANCE.md).
The rate has the same form as django-ratelimit's (``300/m``, ``10/5m``) and the counter
lives in the same cache (``RATELIMIT_USE_CACHE``) under the same prefix.

The counter is keyed on a keyed hash of the client's address (``core.client``), never on
the address itself, and it expires with its window; windows start at a different second
for each address, so that counters do not all start again at once. With Redis unreachable
the cache fails soft (``core.cache``) and the limit fails open: a report is worth more
than the limit.
"""

import hashlib
import hmac
import re
import time

from django.conf import settings

from core.cache import count_in_window
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
    address = client_address(request)
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256).hexdigest()


def too_many_reports(request) -> bool:
    """Count this post against its address; True when the address is over the limit."""
    limit, period = parse_rate(settings.FEEDBACK_RATE_LIMIT)
    address = address_key(request)
    window = (int(time.time()) + int(address[:8], 16)) // period
    count = count_in_window(
        f"rl:{GROUP}:{window}:{address}", period + 1, alias=settings.RATELIMIT_USE_CACHE
    )
    return count is not None and count > limit
