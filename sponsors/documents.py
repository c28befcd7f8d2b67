"""PDF documents for sponsors (fpdf2): the accepted agreement, an issued invoice and a
payment's receipt."""

from django.conf import settings

from core.formatting import money
from core.pdf import document as _pdf
from core.pdf import heading as _heading
from core.pdf import lines as _lines
from core.pdf import text as _text
from sponsors.models import Payment, Sponsorship


def agreement_pdf(sponsorship: Sponsorship) -> bytes:
    terms = sponsorship.terms
    organisation = sponsorship.organisation
    pdf = _pdf(f"Sponsorship agreement: {organisation.name}, {terms['tier']} {terms['year']}")
    _heading(pdf, f"{settings.SITE_NAME}: sponsorship agreement")
    _lines(
        pdf,
        [
            f"Sponsor: {organisation.name}",
            *([organisation.billing_address] if organisation.billing_address else []),
            f"Contact: {organisation.contact_name or organisation.billing_name} "
            f"<{organisation.contact_email or organisation.billing_email}>",
            f"Tier: {terms['tier']} {terms['year']}, "
            f"{money(terms['annual_price'], terms['currency'])} a year",
            f"Agreement version: {sponsorship.agreement.version if sponsorship.agreement else '-'}",
            f"Accepted by: {sponsorship.accepted_by.email if sponsorship.accepted_by else '-'} "
            f"on {sponsorship.accepted_at:%Y-%m-%d %H:%M} UTC",
        ],
    )
    if sponsorship.starts_on:
        _lines(pdf, [f"Term: {sponsorship.starts_on:%d %B %Y} to {sponsorship.ends_on:%d %B %Y}"])
    pdf.ln(4)
    # The text is Markdown; fpdf2 renders its bold and lists closely enough for a record.
    for paragraph in sponsorship.agreement_text.split("\n\n"):
        body = paragraph.strip().removeprefix("## ").replace("\n   ", " ")
        pdf.multi_cell(0, 6, _text(pdf, body), markdown=True, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
    return bytes(pdf.output())


def invoice_pdf(sponsorship: Sponsorship) -> bytes:
    """The invoice Stripe issued, as the site recorded it (Stripe's own is paid online)."""
    terms = sponsorship.terms
    organisation = sponsorship.organisation
    pdf = _pdf(f"Invoice {sponsorship.invoice_number or sponsorship.stripe_invoice_id}")
    _heading(pdf, f"{settings.SITE_NAME}: invoice")
    due = sponsorship.invoice_due_on
    _lines(
        pdf,
        [
            f"Invoice: {sponsorship.invoice_number or '-'} (Stripe {sponsorship.stripe_invoice_id})",
            *([f"Due on: {due:%d %B %Y}"] if due else []),
            f"Amount: {money(terms['annual_price'], terms['currency'])}",
            "",
            f"Billed to: {organisation.billing_name}",
            *([organisation.billing_address] if organisation.billing_address else []),
            *([f"VAT id: {organisation.vat_id}"] if organisation.vat_id else []),
            "",
            f"For: {sponsorship.title}",
        ],
    )
    if sponsorship.invoice_url:
        pdf.ln(2)
        _lines(pdf, [f"Pay it online: {sponsorship.invoice_url}"])
    return bytes(pdf.output())


def payment_pdf(payment: Payment) -> bytes:
    sponsorship = payment.sponsorship
    organisation = sponsorship.organisation
    pdf = _pdf(f"Receipt {payment.stripe_id}")
    _heading(pdf, f"{settings.SITE_NAME}: receipt")
    _lines(
        pdf,
        [
            f"Reference: {payment.stripe_id}",
            f"Paid on: {payment.paid_at:%d %B %Y}",
            f"Amount: {payment.currency.upper()} {payment.amount:,.2f}",
            "",
            f"Billed to: {organisation.billing_name}",
            *([organisation.billing_address] if organisation.billing_address else []),
            *([f"VAT id: {organisation.vat_id}"] if organisation.vat_id else []),
            "",
            f"For: {sponsorship.title}",
            *(["DEMO DATA: no money moved."] if payment.is_demo else []),
        ],
    )
    if payment.receipt_url:
        pdf.ln(2)
        _lines(pdf, [f"Stripe's receipt: {payment.receipt_url}"])
    return bytes(pdf.output())
