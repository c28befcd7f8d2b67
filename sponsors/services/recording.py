"""Recording what Stripe reports of a sponsorship: its payments (kept by the payments app,
``payments.recording``, which also records their refunds and disputes), the Stripe
objects a payment made, and failed payments. Starting a payment is ``billing``'s.

A payment counts as the sponsorship's money whatever its amount, but only a payment of the
term's price (in the term's currency) activates or extends the sponsorship: a signed event
for one cent is one cent, not a year."""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from core.transitions import TransitionRefused
from invoicing import services as issuing
from invoicing.models import IssuedDocument
from outbox import queue
from payments import recording
from payments.events import Rejected
from payments.money import from_minor_units, minor_units
from sponsors import documents, mail, stripe_tasks
from sponsors.models import Payment, Sponsorship, SponsorshipEvent
from sponsors.services import lifecycle
from sponsors.services.lifecycle import activate
from sponsors.services.transitions import S, move


def term_price_minor(sponsorship: Sponsorship) -> int:
    """The price of one term, in the currency's minor unit."""
    terms = sponsorship.terms
    return minor_units(Decimal(str(terms["annual_price"])), str(terms["currency"]))


def _note(sponsorship: Sponsorship, note: str):
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        note=note,
    )


@transaction.atomic
def record_payment(
    sponsorship_id: int,
    *,
    stripe_id: str,
    amount_minor: int,
    currency: str,
    paid_at,
    receipt_url="",
    payment_intent_id="",
    charge_id="",
):
    """A payment arrived (from a verified webhook). Idempotent per Stripe object id.

    A payment in another currency than the sponsorship's terms is rejected: it would be
    counted as the sponsorship's income in a currency it was never priced in."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
    expected = str(sponsorship.terms.get("currency", "")).upper()
    if currency.upper() != expected:
        raise Rejected(f"it pays in {currency.upper()}, the sponsorship is priced in {expected}")
    settled = IssuedDocument.objects.about(sponsorship).invoices().filter(occasion=stripe_id)
    if settled.filter(paid_by=IssuedDocument.PaidBy.TRANSFER).exists():
        return sponsorship  # Stripe's invoice.paid for a transfer staff recorded: counted once
    recorded, created = recording.record_payment(
        sponsorship,
        stripe_id=stripe_id,
        amount_minor=amount_minor,
        currency=currency,
        paid_at=paid_at,
        receipt_url=receipt_url,
        payment_intent_id=payment_intent_id,
        charge_id=charge_id,
    )
    if not created:
        return sponsorship
    payment = Payment.objects.get(pk=recorded.pk)
    _close_invoice(sponsorship, payment)
    queue.enqueue(mail.PAYMENT_RECEIVED, payment_id=payment.pk)
    price = term_price_minor(sponsorship)
    if amount_minor < price:
        paid, due = from_minor_units(amount_minor, expected), from_minor_units(price, expected)
        _note(
            sponsorship,
            f"payment {stripe_id} of {paid} {expected} received; "
            f"not the term's price ({due} {expected}), so the term is unchanged",
        )
        documents.issue_receipt(payment)
        return sponsorship
    first = sponsorship.paid_at is None
    sponsorship.paid_at = max(filter(None, [sponsorship.paid_at, paid_at]))
    sponsorship.save(update_fields=["paid_at"])
    if first and sponsorship.starts_on is None:
        # The year paid for runs from the day of the payment, approved yet or not.
        lifecycle.start_term(sponsorship, timezone.localtime(paid_at).date())
    if sponsorship.status == S.AWAITING_PAYMENT:
        activate(sponsorship)
    elif sponsorship.status in (S.EXPIRING, S.LAPSED) and not first:
        # a renewal: the next year follows the paid one (or today, once it has lapsed)
        today = timezone.localdate()
        sponsorship.ends_on = max(sponsorship.ends_on or today, today) + lifecycle.TERM
        sponsorship.renewal_stopped_at = None
        sponsorship.save(update_fields=["ends_on", "renewal_stopped_at"])
        move(sponsorship, "renew", note=f"renewed by payment {stripe_id}")
    elif sponsorship.status == S.ACTIVE and not first:
        sponsorship.ends_on = (sponsorship.ends_on or timezone.localdate()) + lifecycle.TERM
        sponsorship.renewal_stopped_at = None  # paid for the next year: it goes on
        sponsorship.save(update_fields=["ends_on", "renewal_stopped_at"])
        SponsorshipEvent.objects.create(
            sponsorship=sponsorship,
            from_status=S.ACTIVE,
            to_status=S.ACTIVE,
            note=f"renewed by payment {stripe_id}",
        )
    else:
        _note(sponsorship, f"payment {stripe_id} received")
    documents.issue_receipt(payment)  # after the term moved: it names the year paid for
    return sponsorship


def payment_failed(sponsorship_id: int):
    """Stripe reported a failed charge: tell the sponsor after the commit."""
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship_id, what="payment_failed")


def _close_invoice(sponsorship: Sponsorship, payment: Payment):
    """The invoice this payment pays: Stripe's (paid on its page, same id), or the one a
    bank transfer names; a card payment of a sponsorship with an open invoice pays it too."""
    if payment.stripe_id.startswith(documents.TRANSFER_PREFIX):
        number = payment.stripe_id.removeprefix(documents.TRANSFER_PREFIX)
        invoice = IssuedDocument.objects.about(sponsorship).invoices().get(number=number)
        issuing.mark_paid(invoice, IssuedDocument.PaidBy.TRANSFER, payment.paid_at.date())
        return
    invoice = documents.open_invoice(sponsorship)
    if invoice is not None:
        issuing.mark_paid(invoice, IssuedDocument.PaidBy.CARD, payment.paid_at.date())


@transaction.atomic
def record_transfer(sponsorship: Sponsorship, actor) -> Payment:
    """Staff saw the open invoice's amount arrive by bank transfer: one step records the
    payment (as a webhook would, activating an approved sponsorship), closes the invoice
    and issues the receipt; Stripe is told the invoice was paid outside it."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    invoice = documents.open_invoice(sponsorship)
    if invoice is None:
        raise TransitionRefused("This sponsorship has no open invoice to record a transfer for.")
    stripe_id = f"{documents.TRANSFER_PREFIX}{invoice.number}"
    record_payment(
        sponsorship.pk,
        stripe_id=stripe_id,
        amount_minor=minor_units(invoice.total, invoice.currency),
        currency=invoice.currency,
        paid_at=timezone.now(),
    )
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=Sponsorship.objects.get(pk=sponsorship.pk).status,
        actor=actor,
        note=f"bank transfer for invoice {invoice.number} recorded",
    )
    if invoice.occasion.startswith("in_"):
        queue.enqueue(stripe_tasks.SETTLE_INVOICE, invoice_id=invoice.occasion)
    return Payment.objects.get(stripe_id=stripe_id)
