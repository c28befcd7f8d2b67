"""Recording what Stripe reports of a sponsorship: its payments (kept by the payments app,
``payments.recording``, which also records their refunds and disputes), the term each
payment bought, what happens to that term when the money goes back, the Stripe objects a
payment made, and failed payments. Starting a payment is ``billing``'s and ``paying``'s.

A payment counts as the sponsorship's money whatever its amount, but only a payment of the
term's price (in the term's currency) buys a term: a signed event for one cent is one
cent, not a year. The term follows the money the sponsorship kept: a payment refunded in
full, or lost to a dispute, ends the term it bought (``money_returned``)."""

from datetime import date, datetime
from decimal import Decimal
from typing import cast

from django.db import transaction
from django.utils import timezone

from core import transitions
from core.transitions import TransitionRefused
from invoicing import services as issuing
from invoicing.models import IssuedDocument
from outbox import queue
from payments import recording
from payments.events import Rejected
from payments.money import from_minor_units, minor_units
from sponsors import documents, mail, stripe_tasks
from sponsors.models import PaidTerm, Payment, Sponsorship
from sponsors.services.lifecycle import activate
from sponsors.services.transitions import PAYABLE, Actor, S, move
from sponsors.terms import ONE_DAY, Term


def term_price_minor(sponsorship: Sponsorship) -> int:
    """The price of one term, in the currency's minor unit."""
    terms = sponsorship.terms
    return minor_units(Decimal(str(terms["annual_price"])), str(terms["currency"]))


def _note(sponsorship: Sponsorship, note: str, actor: Actor = None) -> None:
    transitions.record(sponsorship, actor=actor, note=note)


def term_bought(sponsorship: Sponsorship, paid_on: date) -> Term | None:
    """The term a payment of the full price buys, from the sponsorship's state when it
    arrives: the first year from the day it was paid; for a running sponsorship the year
    after the paid one, whatever day it arrives; for a lapsed one the year from the
    payment. None when it buys no term (a second payment of an application, a closed
    sponsorship)."""
    if sponsorship.status in PAYABLE:
        return None if sponsorship.is_paid else Term.one_year_from(paid_on)
    if sponsorship.in_term and sponsorship.ends_on:
        return sponsorship.next_term
    if sponsorship.status == S.LAPSED:
        return Term.one_year_from(paid_on)
    return None


@transaction.atomic
def record_payment(
    sponsorship_id: int,
    *,
    stripe_id: str,
    amount_minor: int,
    currency: str,
    paid_at: datetime,
    receipt_url: str = "",
    payment_intent_id: str = "",
    charge_id: str = "",
) -> Sponsorship:
    """A payment arrived (from a verified webhook). Idempotent per Stripe object id.

    A payment in another currency than the sponsorship's terms is rejected: it would be
    counted as the sponsorship's income in a currency it was never priced in."""
    sponsorship: Sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
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
    paid_on = timezone.localtime(paid_at).date()
    term = term_bought(sponsorship, paid_on) if amount_minor >= price else None
    if term is None:
        paid, due = from_minor_units(amount_minor, expected), from_minor_units(price, expected)
        why = (
            f"not the term's price ({due} {expected})"
            if amount_minor < price
            else f"the sponsorship is {sponsorship.get_status_display().lower()}"
        )
        _note(
            sponsorship,
            f"payment {stripe_id} of {paid} {expected} received; {why}, so the term is unchanged",
        )
    else:
        _buy(sponsorship, payment, term)
    documents.issue_receipt(payment)  # after the term: it names the term it paid for
    # A refund or dispute that reached us before this payment takes it back at once.
    money_returned(payment.pk)
    return sponsorship


def _buy(sponsorship: Sponsorship, payment: Payment, term: Term) -> None:
    """Record the term the payment bought, and what it does to the sponsorship."""
    PaidTerm.objects.create(
        sponsorship=sponsorship, payment=payment, starts_on=term.starts_on, ends_on=term.ends_on
    )
    renewal = sponsorship.is_paid and sponsorship.status not in PAYABLE
    sponsorship.paid_at = max(filter(None, [sponsorship.paid_at, payment.paid_at]))
    sponsorship.starts_on = min(filter(None, [sponsorship.starts_on, term.starts_on]))
    sponsorship.ends_on = max(filter(None, [sponsorship.ends_on, term.ends_on]))
    sponsorship.renewal_stopped_at = None  # paid for the term to come: it goes on
    if sponsorship.renewal_invoice_requested_for == term.starts_on:
        sponsorship.renewal_invoice_requested_for = None  # paid before its invoice was issued
    sponsorship.save(
        update_fields=[
            "paid_at",
            "starts_on",
            "ends_on",
            "renewal_stopped_at",
            "renewal_invoice_requested_for",
        ]
    )
    note = f"{'renewed' if renewal else 'paid'} by payment {payment.stripe_id}: {term}"
    if sponsorship.status == S.AWAITING_PAYMENT:
        activate(sponsorship)
    elif sponsorship.status in (S.EXPIRING, S.LAPSED):
        move(sponsorship, "renew", note=note)
    else:
        _note(sponsorship, note)


def payment_failed(sponsorship_id: int) -> None:
    """Stripe reported a failed charge: tell the sponsor after the commit."""
    queue.enqueue(mail.STATUS_MAIL, sponsorship_id=sponsorship_id, what="payment_failed")


@transaction.atomic
def money_returned(payment_id: int) -> None:
    """A refund or dispute of a sponsorship's payment was recorded (or the payment was,
    after them): the term the payment bought follows the money kept. All of it gone
    (refunded, or lost to a dispute) ends that term: it ran until the day before, or not
    at all; with no term left running, a running sponsorship lapses. Staff are told, and
    the sponsor; any other change (part refunded, a dispute opened or won) is told to staff
    only. Idempotent: the same state of the money tells nobody twice."""
    # The proxy's manager gives proxies; the stubs type them as the payments app's model.
    payment = cast(Payment | None, Payment.objects.filter(pk=payment_id).first())
    if payment is None:
        return  # not a sponsorship's
    sponsorship = Sponsorship.objects.select_for_update().get(pk=payment.object_id)
    row = PaidTerm.objects.select_for_update().filter(payment=payment).first()
    if row is None:
        return  # it bought no term: nothing follows from its money
    back = payment.money_back()
    if back.state == row.money_seen or (not row.money_seen and not (back.gone or back.held)):
        return
    row.money_seen = back.state
    row.save(update_fields=["money_seen"])
    what = back.words(payment.currency)
    if back.all_gone and row.kept:
        _end_term(sponsorship, row, payment, what)
        queue.enqueue(mail.MONEY_RETURNED, payment_id=payment.pk, ended=True)
        queue.enqueue(
            mail.STATUS_MAIL, sponsorship_id=sponsorship.pk, what="term_ended", paid_term_id=row.pk
        )
    else:
        _note(sponsorship, f"payment {payment.stripe_id}: {what}; the term {row.term} stands")
        queue.enqueue(mail.MONEY_RETURNED, payment_id=payment.pk, ended=False)


def _end_term(sponsorship: Sponsorship, row: PaidTerm, payment: Payment, what: str) -> None:
    """The term's money went back in full: it ran until the day before, and the paid time
    loses it; a running sponsorship with no paid day left lapses."""
    row.money_returned_on = timezone.localdate()
    row.save(update_fields=["money_returned_on"])
    ran = row.ran
    note = f"payment {payment.stripe_id}: {what}; the term {row.term} it paid for " + (
        f"ran {ran}" if ran else "never started"
    )
    start, end = sponsorship.starts_on, sponsorship.ends_on
    if start is not None and end is not None:
        if row.starts_on <= start and row.ends_on >= end:
            start = end = None
        elif row.ends_on >= end:
            end = row.starts_on - ONE_DAY
        elif row.starts_on <= start:
            start = row.ends_on + ONE_DAY
    kept_paid_at = [
        kept.payment.paid_at
        for kept in sponsorship.paid_terms.select_related("payment")
        if kept.kept
    ]
    sponsorship.starts_on, sponsorship.ends_on = start, end
    if start is None:
        sponsorship.paid_at = None
    elif kept_paid_at:
        sponsorship.paid_at = max(kept_paid_at)
    sponsorship.save(update_fields=["starts_on", "ends_on", "paid_at"])
    if sponsorship.in_term and (end is None or end < timezone.localdate()):
        move(sponsorship, "lapse", note=note, mail_it=False)
    else:
        _note(sponsorship, note)


def _close_invoice(sponsorship: Sponsorship, payment: Payment) -> None:
    """The invoice this payment pays: Stripe's (paid on its page, same id), or the one a
    bank transfer names; a card payment of a sponsorship with an open invoice pays it too."""
    if payment.stripe_id.startswith(documents.TRANSFER_PREFIX):
        number = payment.stripe_id.removeprefix(documents.TRANSFER_PREFIX)
        named = IssuedDocument.objects.about(sponsorship).invoices().get(number=number)
        issuing.mark_paid(named, IssuedDocument.PaidBy.TRANSFER, payment.paid_at.date())
        return
    invoice = documents.open_invoice(sponsorship)
    if invoice is not None:
        issuing.mark_paid(invoice, IssuedDocument.PaidBy.CARD, payment.paid_at.date())


@transaction.atomic
def record_transfer(sponsorship: Sponsorship, actor: Actor) -> Payment:
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
    # Any move the payment made was audited where it was made: this row notes the transfer.
    _note(
        Sponsorship.objects.get(pk=sponsorship.pk),
        f"bank transfer for invoice {invoice.number} recorded",
        actor,
    )
    if invoice.occasion.startswith("in_"):
        queue.enqueue(stripe_tasks.SETTLE_INVOICE, invoice_id=invoice.occasion)
    payment: Payment = Payment.objects.get(stripe_id=stripe_id)
    return payment
