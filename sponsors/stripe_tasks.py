"""Stripe calls made after a commit (approval, cancellation, admin actions).

Services record them in the outbox (``outbox.queue``) in the transaction that
causes them; the outbox delivers them after the commit and retries them, with a
growing delay, until Stripe answers. Each call is safe to repeat: it carries the
outbox item's idempotency key. Registered in ``SponsorsConfig.ready()``.
"""

from datetime import date
from decimal import Decimal

from django.db import transaction

from core import transitions
from invoicing.models import IssuedDocument
from outbox import queue
from payments.validation import is_stripe_url
from sponsors import documents, stripe_gateway, stripe_objects
from sponsors.models import PaidTerm, Sponsorship
from sponsors.terms import Term

SEND_INVOICE = "sponsors.send_invoice"
SETTLE_INVOICE = "sponsors.settle_invoice"
# The site's own mail about an issued invoice (sponsors.mail sends it; apps.py registers it).
INVOICE_MAIL = "sponsors.invoice_mail"


def send_invoice(sponsorship_id: int, term_starts_on: str = "", idempotency_key: str = ""):
    """Stripe issues an invoice and emails it to the billing contact; the site issues its
    own, numbered from its sequence (the dashboard offers it as a PDF), and mails the
    billing contact a signed link to it. Its invoice.paid webhook, or staff recording a
    bank transfer, pays it and activates or renews the sponsorship.

    ``term_starts_on``: a renewal's, the first day of the term it pays for (the year after
    the paid one); none for the first invoice, whose term starts when it is paid. A term
    already paid (by card meanwhile) or already invoiced is not invoiced again."""
    sponsorship = Sponsorship.objects.select_related("organisation").get(pk=sponsorship_id)
    term = _term_to_invoice(sponsorship, term_starts_on)
    if term is not None and _paid_or_invoiced(sponsorship, term):
        Sponsorship.objects.filter(
            pk=sponsorship.pk, renewal_invoice_requested_for=term.starts_on
        ).update(renewal_invoice_requested_for=None)
        return
    terms = sponsorship.terms
    customer = stripe_objects.ensure_customer(sponsorship.organisation)
    invoice = stripe_gateway.send_invoice(
        customer,
        Decimal(terms["annual_price"]),
        terms["currency"],
        sponsorship.pk,
        f"{sponsorship.title}, {term or documents.FIRST_TERM}",
        idempotency_key,
    )
    with transaction.atomic():
        sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
        if IssuedDocument.objects.about(sponsorship).filter(occasion=invoice.stripe_id).exists():
            return  # a repeated delivery: recorded and mailed already
        issued = documents.issue_invoice(
            sponsorship,
            stripe_invoice_id=invoice.stripe_id,
            due_on=invoice.due_on,
            hosted_url=invoice.url if is_stripe_url(invoice.url) else "",
            term=term,
        )
        sponsorship.stripe_invoice_id = invoice.stripe_id
        sponsorship.invoice_number = issued.number
        sponsorship.invoice_due_on = invoice.due_on
        # Shown as a link on the dashboard: only an address on Stripe's hosts.
        sponsorship.invoice_url = invoice.url if is_stripe_url(invoice.url) else ""
        if term is not None and sponsorship.renewal_invoice_requested_for == term.starts_on:
            sponsorship.renewal_invoice_requested_for = None
        sponsorship.save(
            update_fields=[
                "stripe_invoice_id",
                "invoice_number",
                "invoice_due_on",
                "invoice_url",
                "renewal_invoice_requested_for",
            ]
        )
        what = f"for the term {term}" if term else f"for {documents.FIRST_TERM}"
        transitions.record(
            sponsorship, note=f"invoice {issued.number} issued {what} (Stripe {invoice.stripe_id})"
        )
        queue.enqueue(INVOICE_MAIL, sponsorship_id=sponsorship.pk, invoice_id=issued.pk)


def _term_to_invoice(sponsorship: Sponsorship, term_starts_on: str) -> Term | None:
    if term_starts_on:
        return Term.one_year_from(date.fromisoformat(term_starts_on))
    # Recorded before renewals named their term: a running sponsorship's is the next one.
    return sponsorship.next_term if sponsorship.in_term else None


def _paid_or_invoiced(sponsorship: Sponsorship, term: Term) -> bool:
    if PaidTerm.objects.filter(sponsorship=sponsorship, starts_on=term.starts_on).exists():
        return True
    return any(
        documents.term_of(doc) == term
        for doc in IssuedDocument.objects.about(sponsorship).invoices()
    )


def settle_invoice(invoice_id: str, idempotency_key: str = ""):
    """Staff recorded a bank transfer for this Stripe invoice: Stripe marks it paid."""
    stripe_gateway.mark_invoice_paid_out_of_band(invoice_id, idempotency_key)
