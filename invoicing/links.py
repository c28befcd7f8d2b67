"""Links to issued documents: the signed one a billing contact is mailed, and the admin's
list of a subject's invoices and receipts (shown on the sponsorship's and the donation's
admin pages)."""

from django.conf import settings
from django.db.models import Model
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from core.formatting import long_date, money
from invoicing.models import IssuedDocument
from invoicing.signing import document_token


def public_url(doc: IssuedDocument) -> str:
    """The absolute signed address of the document's page (for mail)."""
    return str(settings.SITE_URL) + reverse("invoicing:document", args=[document_token(doc)])


def public_pdf_url(doc: IssuedDocument) -> str:
    return str(settings.SITE_URL) + reverse("invoicing:pdf", args=[document_token(doc)])


def admin_list(subject: Model) -> str:
    documents = IssuedDocument.objects.about(subject).order_by("issued_on", "id")
    if not documents:
        return "None issued yet"
    return format_html(
        "<ul>{}</ul>",
        format_html_join(
            "",
            '<li><a href="{}">{} {}</a>, {}, {}{}</li>',
            (
                (
                    reverse("admin:invoicing_issueddocument_pdf", args=[doc.pk]),
                    doc.get_kind_display(),
                    doc.number,
                    long_date(doc.issued_on),
                    money(doc.total, doc.currency),
                    (
                        " (open)"
                        if doc.is_open
                        else f" (paid {long_date(doc.paid_on)})"
                        if doc.paid_on
                        else ""
                    ),
                )
                for doc in documents
            ),
        ),
    )
