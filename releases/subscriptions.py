"""The signed links in subscription mails: confirming an address and unsubscribing it.

Each token names a subscriber row, so a link stops working once its row is deleted and a
new subscription of the same address gets new links."""

from django.core import signing

CONFIRM_SALT = "releases.subscription.confirm"
UNSUBSCRIBE_SALT = "releases.subscription.unsubscribe"
# A confirmation link is for the person who just asked; an unsubscribe link never expires.
CONFIRM_MAX_AGE = 7 * 24 * 3600


def confirm_token(subscriber) -> str:
    return signing.TimestampSigner(salt=CONFIRM_SALT).sign(str(subscriber.pk))


def unsubscribe_token(subscriber) -> str:
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign(str(subscriber.pk))


def _subscriber_id(token: str, salt: str, max_age=None) -> int | None:
    try:
        value = signing.TimestampSigner(salt=salt).unsign(token, max_age=max_age)
    except signing.BadSignature:  # also SignatureExpired
        return None
    return int(value) if value.isdigit() else None


def subscriber_to_confirm(token: str) -> int | None:
    """The subscriber id a confirmation token was made for, or None if tampered or expired."""
    return _subscriber_id(token, CONFIRM_SALT, CONFIRM_MAX_AGE)


def subscriber_to_unsubscribe(token: str) -> int | None:
    """The subscriber id an unsubscribe token was made for, or None if tampered with."""
    return _subscriber_id(token, UNSUBSCRIBE_SALT)
