"""A sponsorship's documents: the accepted agreement (a PDF drawn here), and its invoices
and receipts, issued and numbered by the invoicing app from what is built here (the
buyer, the line with the term it pays for, the VAT treatment, how it was paid); and the
list of them all that the dashboard and the organisation page show."""

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils import timezone

from core.formatting import money
from core.pdf import document as _pdf
from core.pdf import heading as _heading
from core.pdf import lines as _lines
from core.pdf import text as _text
from invoicing import services as issuing
from invoicing import vat
from invoicing.models import IssuedDocument
from sponsors.models import Organisation, PaidTerm, Payment, Sponsorship
from sponsors.terms import Term, long_date

INVOICE = IssuedDocument.Kind.INVOICE
RECEIPT = IssuedDocument.Kind.RECEIPT
NO_HOSTED_PAGE = (
    "Stripe gave no online payment page for this invoice: please pay it by bank transfer."
)
NO_HOSTED_PAGE_FAKE = (
    "Test mode: Stripe's fake (localstripe) has no online payment page for invoices, so "
    "this invoice is paid by bank transfer (staff record it in the admin)."
)
FIRST_TERM = "one year from the day the fee is paid"


def agreement_pdf(sponsorship: Sponsorship) -> bytes:
    terms = sponsorship.terms
    organisation = sponsorship.organisation
    billed = buyer(organisation)
    pdf = _pdf(f"Sponsorship agreement: {organisation.name}, {sponsorship.title}")
    _heading(pdf, f"{settings.SITE_NAME}: sponsorship agreement")
    _lines(
        pdf,
        [
            f"Sponsor: {organisation.name}",
            # the party to the agreement as its invoices name it: the legal billing name and
            # the full postal address, its country included (``buyer``)
            *([f"Legal name: {billed['name']}"] if billed["name"] != organisation.name else []),
            *([f"Address: {billed['address']}"] if billed["address"] else []),
            *([f"VAT id: {billed['vat_number']}"] if billed["vat_number"] else []),
            f"Contact: {organisation.contact_name or organisation.billing_name} "
            f"<{organisation.contact_email or organisation.billing_email}>",
            f"Tier: {sponsorship.title}, {money(terms['annual_price'], terms['currency'])} "
            f"a term of one year ({terms['year']} price list)",
            f"Agreement version: {sponsorship.agreement.version if sponsorship.agreement else '-'}",
            f"Accepted by: {sponsorship.accepted_by.email if sponsorship.accepted_by else '-'} "
            f"on {sponsorship.accepted_at:%Y-%m-%d %H:%M} UTC",
        ],
    )
    _lines(pdf, term_lines(sponsorship))
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


def term_lines(sponsorship: Sponsorship) -> list[str]:
    """Each term paid under the agreement, with what became of it; before any, when the
    first one starts."""
    rows = list(sponsorship.paid_terms.select_related("payment"))
    if not rows:
        term = sponsorship.kept_terms()
        return [f"Term: {term[0]}"] if term else [f"Term: {FIRST_TERM}"]
    lines = []
    for row in rows:
        paid = f"paid {long_date(timezone.localtime(row.payment.paid_at).date())}"
        if row.money_returned_on is None:  # kept
            lines.append(f"Term: {row.term} ({paid})")
        else:
            ran = f"ran {row.ran}" if row.ran else "never started"
            lines.append(
                f"Term: {row.term} ({paid}; the payment went back in full on "
                f"{long_date(row.money_returned_on)}: it {ran})"
            )
    return lines


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
            when = f"due by {long_date(sponsorship.starts_on + timedelta(days=benefit.due_days))}"
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


def _line(sponsorship: Sponsorship, term: Term | None, *, renewal: bool = False) -> dict:
    """What is paid for: the term (a renewal's is the one after the paid term), or, before
    the first payment, one year from the day it is paid. The term rides along, as data."""
    if term is None:
        what = FIRST_TERM
    elif renewal:
        what = f"renewal, the term {term}"
    else:
        what = f"the term {term}"
    return {
        "description": f"{sponsorship.title} for {sponsorship.organisation.name}: {what}",
        "amount": Decimal(sponsorship.terms["annual_price"]),
        "term": term.as_dict() if term else None,
    }


def term_of(doc: IssuedDocument) -> Term | None:
    """The term an issued invoice or receipt is for (None: the first term, not yet paid,
    or a document issued before documents named their term)."""
    lines = doc.content.get("lines") or [{}]
    return Term.from_dict(lines[0].get("term"))


def issue_invoice(
    sponsorship: Sponsorship,
    *,
    stripe_invoice_id: str,
    due_on: date | None,
    hosted_url: str,
    term: Term | None,
) -> IssuedDocument:
    """The invoice of what Stripe issued (one per Stripe invoice): the site's number, the
    issuer, the buyer, the term it pays for (``None``: the first, from the day it is paid),
    VAT and how to pay it (a transfer quoting the number, or Stripe's page)."""
    organisation = sponsorship.organisation
    line = _line(sponsorship, term, renewal=term is not None)
    if hosted_url:
        online: dict[str, object] = {"hosted_url": hosted_url}
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


def term_paid_by(payment: Payment) -> PaidTerm | None:
    return PaidTerm.objects.filter(payment=payment).first()


def issue_receipt(payment: Payment) -> IssuedDocument:
    """The receipt of one payment (issued once; a payment recorded before receipts were
    numbered gets its number when it is first asked for), naming the term it paid for."""
    sponsorship = payment.sponsorship
    organisation = sponsorship.organisation
    paid_on = timezone.localtime(payment.paid_at).date()
    bought = term_paid_by(payment)
    if bought is not None:
        renewal = sponsorship.starts_on is not None and bought.starts_on > sponsorship.starts_on
        line = _line(sponsorship, bought.term, renewal=renewal)
    else:
        line = {
            "description": f"{sponsorship.title} for {organisation.name}: a payment that "
            "bought no term (not the price of a term, or the sponsorship was closed)",
            "term": None,
        }
    return issuing.issue(
        RECEIPT,
        sponsorship,
        payment.stripe_id,
        total=payment.amount,
        currency=payment.currency,
        buyer=buyer(organisation),
        lines=[{**line, "amount": payment.amount}],
        treatment=vat_treatment(organisation),
        paid={"on": paid_on.isoformat(), "how": how_paid(sponsorship, payment)},
        issued_on=paid_on,
        is_demo=payment.is_demo,
    )


@dataclass(frozen=True)
class Listed:
    """One document of a sponsorship as its managers see it listed, with its PDF."""

    name: str  # "Invoice INV-000002", "Agreement, version 1"
    about: str  # "€50,000 for the term …": the amount and the term, by its label
    note: str  # "open: due on 6 January 2028", "paid on 7 December 2027", "€10,000 refunded"
    pdf_url: str
    is_open: bool = False


def attach_documents(sponsorships) -> None:
    """Give each sponsorship its issued invoices and receipts (``issued``, newest first) in
    one query, for pages that list many."""
    sponsorships = list(sponsorships)
    by_id = {s.pk: s for s in sponsorships}
    for s in sponsorships:
        s.issued = []
    if not by_id:
        return
    issued = IssuedDocument.objects.filter(
        subject_type=ContentType.objects.get_for_model(Sponsorship), subject_id__in=by_id
    ).order_by("-issued_on", "-id")
    for doc in issued:
        by_id[doc.subject_id].issued.append(doc)


def listing(sponsorship: Sponsorship) -> list[Listed]:
    """The sponsorship's documents: its open invoices first, then the agreement, and the
    other invoices and the receipts, newest first (``attach_documents`` first; its
    payments prefetched with their refunds and disputes)."""
    payments = {p.stripe_id: p for p in sponsorship.payments.all()}
    issued: list[IssuedDocument] = sponsorship.issued  # type: ignore[attr-defined]  # attach_documents gives it
    receipted = {doc.occasion for doc in issued if doc.kind == RECEIPT}
    rows = [_listed(sponsorship, doc, payments.get(doc.occasion)) for doc in issued]
    for payment in payments.values():  # recorded before receipts were issued with payments
        if payment.stripe_id not in receipted:
            paid_on = timezone.localtime(payment.paid_at).date()
            about = f"{money(payment.amount, payment.currency)} paid on {long_date(paid_on)}"
            pdf_url = reverse("sponsors:payment-pdf", args=[payment.pk])
            rows.append(Listed("Receipt", about, _taken_back(payment), pdf_url))
    if sponsorship.accepted_at:
        by = sponsorship.accepted_by.email if sponsorship.accepted_by else "a former manager"
        version = sponsorship.agreement.version if sponsorship.agreement else "-"
        accepted = f"accepted by {by} on {long_date(sponsorship.accepted_at.date())}"
        pdf_url = reverse("sponsors:agreement-pdf", args=[sponsorship.pk])
        rows.insert(0, Listed(f"Agreement, version {version}", accepted, "", pdf_url))
    return sorted(rows, key=lambda row: not row.is_open)


def _what_for(doc: IssuedDocument) -> str:
    """ "for the term …" as issued; a document issued before documents named their term
    says what its line says."""
    line = (doc.content.get("lines") or [{}])[0]
    term = Term.from_dict(line.get("term"))
    if term is not None:
        return f"for the term {term}"
    if "term" not in line:
        return "for " + line.get("description", "").split(": ", 1)[-1]
    return f"for {FIRST_TERM}" if doc.kind == INVOICE else "for no term"


def _listed(sponsorship: Sponsorship, doc: IssuedDocument, payment: Payment | None) -> Listed:
    about = _what_for(doc)
    pdf_url = reverse("sponsors:document-pdf", args=[sponsorship.pk, doc.number])
    amount = money(doc.total, doc.currency)
    if doc.kind == INVOICE:
        due = f": due on {long_date(doc.due_on)}" if doc.due_on else ""
        note = f"paid on {long_date(doc.paid_on)}" if doc.paid_on else f"open{due}"
        return Listed(f"Invoice {doc.number}", f"{amount} {about}", note, pdf_url, doc.is_open)
    paid = f"{amount} paid on {long_date(doc.issued_on)}"
    return Listed(f"Receipt {doc.number}", f"{paid} {about}", _taken_back(payment), pdf_url)


def _taken_back(payment: Payment | None) -> str:
    """What a receipt's payment lost since (refunds, disputes), or that it is demo data."""
    if payment is None:
        return ""
    notes = ["demo data: no money moved"] if payment.is_demo else []
    if payment.taken_back_minor:
        notes.append(f"{money(payment.taken_back, payment.currency)} {payment.taken_back_by}")
    return "; ".join(notes)


def open_invoices(sponsorship: Sponsorship) -> list[IssuedDocument]:
    """Its unpaid invoices, newest first (``attach_documents`` first)."""
    issued: list[IssuedDocument] = sponsorship.issued  # type: ignore[attr-defined]  # attach_documents gives it
    return [doc for doc in issued if doc.kind == INVOICE and doc.paid_on is None]
