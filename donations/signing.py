"""The signed link in every receipt that lets a donor manage a gift without an account."""

from django.core import signing

SALT = "donations.manage"


def manage_token(reference) -> str:
    return signing.dumps(str(reference), salt=SALT)


def reference_from_token(token: str) -> str | None:
    """The donation reference the token was made for, or None if it was tampered with."""
    try:
        return signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
