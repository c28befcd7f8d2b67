"""The signed link that opens one issued document without an account (the invoice mailed
to a billing contact who does not manage the organisation on the site).

A link lasts ``DOCUMENT_LINK_MAX_AGE_DAYS`` from when it was made: one copied from a log,
a browser's history or a forwarded mail stops working. Whoever opens an expired link may
ask for a fresh one, which goes to the address the document was issued to, never to the
one asking (``invoicing.views``)."""

from datetime import timedelta

from django.conf import settings
from django.core import signing

from invoicing.models import IssuedDocument

SALT = "invoicing.document"


def document_token(document: IssuedDocument) -> str:
    return signing.dumps(document.pk, salt=SALT)


def _loads(token: str, max_age: timedelta | None) -> int | None:
    value = signing.loads(token, salt=SALT, max_age=max_age)
    return value if isinstance(value, int) else None


def document_id(token: str) -> int | None:
    """The document the token was made for, or None if it was tampered with or is older
    than DOCUMENT_LINK_MAX_AGE_DAYS."""
    try:
        return _loads(token, timedelta(days=settings.DOCUMENT_LINK_MAX_AGE_DAYS))
    except signing.BadSignature:  # SignatureExpired is one
        return None


def expired_document_id(token: str) -> int | None:
    """The document of a token the site made that has expired, or None."""
    try:
        _loads(token, timedelta(days=settings.DOCUMENT_LINK_MAX_AGE_DAYS))
    except signing.SignatureExpired:
        return _loads(token, None)
    except signing.BadSignature:
        return None
    return None
