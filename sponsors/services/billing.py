"""Paying for a sponsorship: by card or Checkout through Stripe, or by invoice, and the
payments Stripe reports."""

import logging
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from invoicing import services as issuing
from invoicing.models import IssuedDocument
from outbox import queue
from payments.validation import Rejected
from sponsors import agreements, documents, mail, stripe_gateway, stripe_objects, stripe_tasks
from sponsors.models import Payment, Sponsorship, SponsorshipEvent
from sponsors.services import lifecycle
from sponsors.services.lifecycle import activate
from sponsors.services.transitions import PAYABLE, InvalidTransition, S, SponsorshipError

logger = logging.getLogger(__name__)


class PaymentFailed(SponsorshipError):
    pass


class StripeUnavailable(PaymentFailed):
    """Stripe could not be reached; nothing was charged and the invoice remains possible."""

    def __init__(self):
        super().__init__(
            "Our payment provider cannot be reached just now, so nothing was charged. "
            "Please try again in a few minutes, or pay by invoice instead."
        )


def _stripe_failure(error, fallback: str) -> PaymentFailed:
    if isinstance(error, stripe_gateway.UNREACHABLE):
        logger.warning("Stripe unreachable: %s", type(error).__name__)
        return StripeUnavailable()
    return PaymentFailed(error.user_message or fallback)


def pay_by_card(sponsorship: Sponsorship, payment_method_id: str):
    """Charge or subscribe through Stripe. Success is recorded by the webhook, not here."""
    organisation = sponsorship.organisation
    terms = sponsorship.terms
    try:
        customer = stripe_objects.ensure_customer(organisation)
        stripe_gateway.attach_default_payment_method(customer, payment_method_id)
        if sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
            made = {
                "subscription_id": stripe_gateway.subscribe(
                    customer,
                    stripe_objects.ensure_plan(sponsorship.tier),
                    sponsorship.pk,
                    payment_method_id,
                )
            }
        else:
            made = {
                "payment_intent_id": stripe_gateway.charge_once(
                    customer,
                    payment_method_id,
                    Decimal(terms["annual_price"]),
                    terms["currency"],
                    sponsorship.pk,
                )
            }
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "The card was declined.") from error
    stripe_objects.store_payment_ids(sponsorship, **made)


def pay_with_card_details(sponsorship: Sponsorship, card: dict):
    """Test mode only: the card fields go to the fake Stripe, which makes a payment method."""
    try:
        payment_method = stripe_gateway.card_payment_method(card)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "The card was declined.") from error
    pay_by_card(sponsorship, payment_method)


def start_checkout(sponsorship: Sponsorship, *, success_url: str, cancel_url: str) -> str:
    """Live mode: the URL of Stripe's hosted payment page for this sponsorship.

    The card never reaches this site. Success is recorded by the webhooks
    (checkout.session.completed, then invoice.paid or payment_intent.succeeded).
    """
    terms = sponsorship.terms
    try:
        session = {
            "customer_id": stripe_objects.ensure_customer(sponsorship.organisation),
            "sponsorship_id": sponsorship.pk,
            "success_url": success_url,
            "cancel_url": cancel_url,
        }
        if sponsorship.payment_method == Sponsorship.Payment.CARD_ANNUAL:
            session["plan_id"] = stripe_objects.ensure_plan(sponsorship.tier)
        else:
            session.update(
                amount=Decimal(terms["annual_price"]),
                currency=terms["currency"],
                description=sponsorship.title,
            )
        return stripe_gateway.checkout_url(**session)
    except stripe_gateway.StripeError as error:
        raise _stripe_failure(error, "Stripe could not start the payment.") from error


@transaction.atomic
def pay_by_invoice_instead(sponsorship: Sponsorship, actor) -> Sponsorship:
    """The sponsor gives up on the card (Stripe unreachable, or no card at hand).

    Before approval the invoice goes out when staff approve; after approval it goes out now.
    """
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if sponsorship.is_paid or sponsorship.status not in PAYABLE:
        raise InvalidTransition("This sponsorship needs no payment now.")
    if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
        return sponsorship
    sponsorship.payment_method = Sponsorship.Payment.INVOICE
    changed, note = ["payment_method"], "payment by invoice instead of card"
    if sponsorship.agreement_id is not None:
        # The accepted text names the way to pay: the pay page showed the invoice wording,
        # and pressing its button accepts the agreement with it.
        sponsorship.agreement_text = agreements.render(
            sponsorship.agreement.text,
            organisation=sponsorship.organisation.name,
            terms=sponsorship.terms,
            payment_method=Sponsorship.Payment.INVOICE,
        )
        sponsorship.accepted_by, sponsorship.accepted_at = actor, timezone.now()
        changed += ["agreement_text", "accepted_by", "accepted_at"]
        note += "; agreement accepted with the invoice wording"
    sponsorship.save(update_fields=changed)
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        actor=actor,
        note=note,
    )
    if sponsorship.status == S.AWAITING_PAYMENT:
        queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
    return sponsorship


@transaction.atomic
def link_stripe_objects(sponsorship_id: int, *, subscription_id="", payment_intent_id="", note=""):
    """Remember the subscription or payment Stripe created for a sponsorship. Idempotent."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship_id)
    changed = []
    if subscription_id and sponsorship.stripe_subscription_id != subscription_id:
        sponsorship.stripe_subscription_id = subscription_id
        changed.append("stripe_subscription_id")
    if payment_intent_id and sponsorship.stripe_payment_intent_id != payment_intent_id:
        sponsorship.stripe_payment_intent_id = payment_intent_id
        changed.append("stripe_payment_intent_id")
    if changed:
        sponsorship.save(update_fields=changed)
        if note:
            SponsorshipEvent.objects.create(
                sponsorship=sponsorship,
                from_status=sponsorship.status,
                to_status=sponsorship.status,
                note=note,
            )
    return sponsorship


@transaction.atomic
def record_payment(
    sponsorship_id: int, *, stripe_id: str, amount: Decimal, currency: str, paid_at, receipt_url=""
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
    payment, created = Payment.objects.get_or_create(
        stripe_id=stripe_id,
        defaults={
            "sponsorship": sponsorship,
            "amount": amount,
            "currency": currency.upper(),
            "paid_at": paid_at,
            "receipt_url": receipt_url,
        },
    )
    if not created:
        return sponsorship
    _close_invoice(sponsorship, payment)
    queue.enqueue(mail.PAYMENT_RECEIVED, payment_id=payment.pk)
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
        activate(sponsorship)
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
        SponsorshipEvent.objects.create(
            sponsorship=sponsorship,
            from_status=sponsorship.status,
            to_status=sponsorship.status,
            note=f"payment {stripe_id} received",
        )
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
def record_transfer(sponsorship: Sponsorship, actor, received_on=None) -> Payment:
    """Staff saw the open invoice's amount arrive by bank transfer: one step records the
    payment (as a webhook would, activating an approved sponsorship), closes the invoice
    and issues the receipt; Stripe is told the invoice was paid outside it."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    invoice = documents.open_invoice(sponsorship)
    if invoice is None:
        raise InvalidTransition("This sponsorship has no open invoice to record a transfer for.")
    received_on = received_on or timezone.localdate()
    stripe_id = f"{documents.TRANSFER_PREFIX}{invoice.number}"
    record_payment(
        sponsorship.pk,
        stripe_id=stripe_id,
        amount=invoice.total,
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


@transaction.atomic
def renew(sponsorship: Sponsorship, actor) -> str:
    """Renew a running year ahead of its end: "invoice" (a new invoice for the next year is
    issued after the commit) or "card" (the pay page takes one year by card). The payment,
    when it arrives, adds the next year to the end of the paid one."""
    sponsorship = Sponsorship.objects.select_for_update().get(pk=sponsorship.pk)
    if not lifecycle.renewable(sponsorship):
        raise InvalidTransition("This sponsorship cannot be renewed now.")
    if sponsorship.payment_method == Sponsorship.Payment.INVOICE:
        if documents.open_invoice(sponsorship):
            raise InvalidTransition("An invoice is already open: pay it to renew.")
        queue.enqueue(stripe_tasks.SEND_INVOICE, sponsorship_id=sponsorship.pk)
        note, how = "renewal invoice requested by the sponsor", "invoice"
    else:
        # a stopped card renewal is renewed by a one-year card payment
        sponsorship.payment_method = Sponsorship.Payment.CARD_ONCE
        sponsorship.save(update_fields=["payment_method"])
        note, how = "renewal by card started by the sponsor", "card"
    SponsorshipEvent.objects.create(
        sponsorship=sponsorship,
        from_status=sponsorship.status,
        to_status=sponsorship.status,
        actor=actor,
        note=note,
    )
    return how
