"""The signed link in every receipt that lets a donor manage a gift without an account.

A link lasts ``DONATION_LINK_MAX_AGE_DAYS`` from when it was made (each receipt and each
"send me my links" mail makes a new one): a link copied from a log, a browser history or
a forwarded mail stops working. Its path never reaches the logs (``core.logredact`` and
nginx's map redact it) nor another site (the pages send no Referer)."""

from datetime import timedelta

from django.conf import settings
from django.core import signing

SALT = "donations.manage"


def manage_token(reference) -> str:
    return signing.dumps(str(reference), salt=SALT)


def reference_from_token(token: str) -> str | None:
    """The donation reference the token was made for, or None if it was tampered with or
    is older than DONATION_LINK_MAX_AGE_DAYS."""
    max_age = timedelta(days=settings.DONATION_LINK_MAX_AGE_DAYS)
    try:
        return signing.loads(token, salt=SALT, max_age=max_age)
    except signing.BadSignature:  # SignatureExpired is one
        return None
