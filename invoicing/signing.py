"""The signed link that opens one issued document without an account (the invoice mailed
to a billing contact who does not manage the organisation on the site)."""

from django.core import signing

SALT = "invoicing.document"


def document_token(document) -> str:
    return signing.dumps(document.pk, salt=SALT)


def document_id(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None
