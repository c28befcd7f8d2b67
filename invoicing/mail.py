"""Mails of invoicing itself (the outbox delivers them; registered in InvoicingConfig.ready())."""

from django.conf import settings

from core.mail import send_templated_mail
from invoicing.links import public_pdf_url, public_url
from invoicing.models import IssuedDocument

FRESH_LINK = "invoicing.fresh_link"


def issued_to(document: IssuedDocument) -> str:
    """The e-mail address the document was issued to ("" when it names none)."""
    return str((document.content.get("buyer") or {}).get("email") or "")


def send_fresh_link(document_id: int) -> None:
    """A fresh signed link to a document, to the address it was issued to."""
    document = IssuedDocument.objects.filter(pk=document_id).first()
    address = issued_to(document) if document else ""
    if document is None or not address:
        return
    send_templated_mail(
        "invoicing/email/fresh_link",
        {
            "doc": document,
            "page_url": public_url(document),
            "pdf_url": public_pdf_url(document),
            "days": settings.DOCUMENT_LINK_MAX_AGE_DAYS,
        },
        [address],
    )
