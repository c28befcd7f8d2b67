"""A sponsorship's documents: the accepted agreement (a PDF drawn here), and its invoices
and receipts, issued and numbered by the invoicing app from what is built here (the
buyer, the line, the VAT treatment, how it was paid)."""

from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.utils import timezone

from core.formatting import money
from core.pdf import document as _pdf
from core.pdf import heading as _heading
from core.pdf import lines as _lines
from core.pdf import text as _text
from invoicing import services as issuing
from invoicing import vat
from invoicing.models import IssuedDocument
from sponsors.models import Organisation, Payment, Sponsorship

INVOICE = IssuedDocument.Kind.INVOICE
RECEIPT = IssuedDocument.Kind.RECEIPT
NO_HOSTED_PAGE = (
    "Stripe gave no online payment page for this invoice: please pay it by bank transfer."
)
NO_HOSTED_PAGE_FAKE = (
    "Test mode: Stripe's fake (localstripe) has no online payment page for invoices, so "
    "this invoice is paid by bank transfer (staff record it in the admin)."
)


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
    pdf.ln(2)
    _heading(pdf, "The benefits and their dates", size=13)
    _lines(pdf, benefit_lines(sponsorship))
    return bytes(pdf.output())


def benefit_lines(sponsorship: Sponsorship) -> list[str]:
    """The benefits the agreement promises, each with its date: due by a day once the
    sponsorship has started, "within N days of the start" before."""
    items = list(sponsorship.tier.benefit_items.all())
    if not items:
        listed = [
            line.strip().lstrip("-* ").strip()
            for line in sponsorship.terms.get("benefits", "").splitlines()
        ]
        listed = [f"- {line}" for line in listed if line]
        return listed or ["This tier lists no benefits beyond the sponsorship itself."]
    rows = []
    for benefit in items:
        if sponsorship.starts_on:
            when = f"due by {sponsorship.starts_on + timedelta(days=benefit.due_days):%d %B %Y}"
        else:
            when = f"within {benefit.due_days} days of the start"
        needs = (
            ""
            if benefit.asset == "none"
            else f" (needs from you: {benefit.get_asset_display().lower()})"
        )
        rows.append(f"- {benefit.name}: {when}{needs}")
    return rows


def buyer(organisation: Organisation) -> dict:
    return {
        "name": organisation.billing_name or organisation.name,
        "address": "\n".join(
            filter(None, [organisation.billing_address, organisation.billing_country.name])
        ),
        "vat_number": organisation.vat_id,
        "email": organisation.billing_email,
    }


def vat_treatment(organisation: Organisation) -> vat.Treatment:
    return vat.treatment(
        issuer_country=settings.INVOICE_ISSUER_COUNTRY,
        rate=Decimal(settings.INVOICE_VAT_RATE),
        buyer_country=organisation.billing_country.code or "",
        buyer_vat_number=organisation.vat_id,
    )


def _line(sponsorship: Sponsorship, *, next_year: bool = False) -> dict:
    """What is paid for: the year to come (an invoice for a renewal), the paid year, or
    one year from the payment (before any)."""
    terms = sponsorship.terms
    if next_year and sponsorship.ends_on:
        end = sponsorship.ends_on + timedelta(days=365)
        term = f"renewal, {sponsorship.ends_on:%d %B %Y} to {end:%d %B %Y}"
    elif sponsorship.starts_on:
        term = f"{sponsorship.starts_on:%d %B %Y} to {sponsorship.ends_on:%d %B %Y}"
    else:
        term = "one year from the day the fee is paid"
    return {
        "description": f"{sponsorship.title} for {sponsorship.organisation.name}: {term}",
        "amount": Decimal(terms["annual_price"]),
    }


def issue_invoice(
    sponsorship: Sponsorship, *, stripe_invoice_id: str, due_on: date | None, hosted_url: str
) -> IssuedDocument:
    """The invoice of what Stripe issued (one per Stripe invoice): the site's number, the
    issuer, the buyer, VAT and how to pay it (a transfer quoting the number, or Stripe's
    page)."""
    organisation = sponsorship.organisation
    line = _line(sponsorship, next_year=sponsorship.in_term)
    if hosted_url:
        online = {"hosted_url": hosted_url}
    else:
        # STRIPE_API_BASE names a fake Stripe (refused in production by check --deploy).
        fake = bool(settings.STRIPE_API_BASE)
        online = {"online_note": NO_HOSTED_PAGE_FAKE if fake else NO_HOSTED_PAGE}
    return issuing.issue(
        INVOICE,
        sponsorship,
        stripe_invoice_id,
        total=line["amount"],
        currency=sponsorship.terms["currency"],
        buyer=buyer(organisation),
        lines=[line],
        treatment=vat_treatment(organisation),
        online=online,
        due_on=due_on,
    )


def open_invoice(sponsorship: Sponsorship) -> IssuedDocument | None:
    return IssuedDocument.objects.about(sponsorship).unpaid().order_by("-id").first()


def latest_invoice(sponsorship: Sponsorship) -> IssuedDocument | None:
    return IssuedDocument.objects.about(sponsorship).invoices().order_by("-id").first()


def how_paid(sponsorship: Sponsorship, payment: Payment) -> str:
    invoice = IssuedDocument.objects.about(sponsorship).invoices().filter(
        occasion=payment.stripe_id
    ).first() or (
        IssuedDocument.objects.about(sponsorship)
        .invoices()
        .filter(number=payment.stripe_id.removeprefix(TRANSFER_PREFIX))
        .first()
    )
    if payment.is_demo:
        return "demo payment (no money moved)"
    if payment.stripe_id.startswith(TRANSFER_PREFIX):
        return f"bank transfer against invoice {invoice.number if invoice else '-'}"
    if invoice is not None:
        return f"card, on Stripe's page for invoice {invoice.number} (Stripe {payment.stripe_id})"
    return f"card, through Stripe ({payment.stripe_id})"


# A bank transfer's payment is recorded under this prefix and the invoice number.
TRANSFER_PREFIX = "transfer-"


def issue_receipt(payment: Payment) -> IssuedDocument:
    """The receipt of one payment (issued once; a payment recorded before receipts were
    numbered gets its number when it is first asked for)."""
    sponsorship = payment.sponsorship
    organisation = sponsorship.organisation
    paid_on = timezone.localtime(payment.paid_at).date()
    line = {**_line(sponsorship), "amount": payment.amount}
    return issuing.issue(
        RECEIPT,
        sponsorship,
        payment.stripe_id,
        total=payment.amount,
        currency=payment.currency,
        buyer=buyer(organisation),
        lines=[line],
        treatment=vat_treatment(organisation),
        paid={"on": paid_on.isoformat(), "how": how_paid(sponsorship, payment)},
        issued_on=paid_on,
        is_demo=payment.is_demo,
    )
