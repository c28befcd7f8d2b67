"""The per-address limit on report posts: django-ratelimit over the default cache.

The counter is keyed on a keyed hash of the client's address (``core.client``), never on
the address itself, and it expires with its window. With Redis unreachable the cache
fails soft (``core.cache``) and django-ratelimit fails open (``RATELIMIT_FAIL_OPEN``):
a report is worth more than the limit.
"""

import hashlib
import hmac

from django.conf import settings
from django_ratelimit.core import is_ratelimited

from core.client import client_address

GROUP = "feedback-post"


def address_key(group, request) -> str:
    address = client_address(request)
    return hmac.new(settings.SECRET_KEY.encode(), address.encode(), hashlib.sha256).hexdigest()


def too_many_reports(request) -> bool:
    """Count this post against its address; True when the address is over the limit."""
    return is_ratelimited(
        request, group=GROUP, key=address_key, rate=settings.FEEDBACK_RATE_LIMIT, increment=True
    )
