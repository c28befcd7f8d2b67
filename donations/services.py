"""Donation workflows: start a gift, record what Stripe reports, cancel a monthly gift.

Live, a gift is paid on Stripe Checkout and managed on Stripe's customer portal; in fake
mode (``payments.gateway.fake_mode``) the test card is typed on the donate page and sent
to the fake from here. Either way only Stripe's webhook events record money.

Every recording function is idempotent (gifts and refunds are keyed by their Stripe
ids), so Stripe's replays and out-of-order deliveries leave the same state.
"""

import logging
import uuid
from datetime import UTC, datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from donations import mail, signing, stripe_gateway
from donations.models import Donation, Gift, Refund
from outbox import queue
from payments.validation import Rejected

logger = logging.getLogger(__name__)
D = Donation.Status


class PaymentServiceUnavailable(Exception):
    """Stripe could not be reached or refused the request; nothing was saved."""


class CardRefused(Exception):
    """Fake mode: Stripe refused the test card; nothing was taken or kept. The message
    says why, for the donor."""


class NotCancellable(Exception):
    """The gift is not a running monthly gift (the message says why); nothing changed."""


def thanks_url(base: str, reference) -> str:
    """The thank-you page of one gift: it says what Stripe has reported about it."""
    return f"{base}?gift={signing.manage_token(reference)}"


def start(
    *,
    email: str,
    amount: Decimal,
    currency: str,
    monthly: bool,
    public_name: str,
    show_on_wall: bool,
    user,
    thanks: str,
    cancel_url: str,
) -> str:
    """Open a Stripe Checkout session, then record the pending donation; returns its URL.

    Stripe answers first: if it cannot, no row is written and the caller says so.
    Stripe sends the donor back to ``thanks`` (the thank-you page), naming the gift.
    """
    reference = uuid.uuid4()
    frequency = Donation.Frequency.MONTHLY if monthly else Donation.Frequency.ONCE
    try:
        session_id, url = stripe_gateway.checkout_url(
            reference=str(reference),
            email=email,
            amount=amount,
            currency=currency,
            monthly=monthly,
            description=f"{frequency.label} gift to the MariaDB Foundation",
            success_url=thanks_url(thanks, reference),
            cancel_url=cancel_url,
        )
    except stripe_gateway.StripeError as error:
        logger.warning(
            "Stripe refused or could not open a donation checkout: %s", type(error).__name__
        )
        raise PaymentServiceUnavailable from error
    Donation.objects.create(
        reference=reference,
        email=email,
        user=user if user is not None and user.is_authenticated else None,
        amount=amount,
        currency=currency,
        frequency=frequency,
        public_name=public_name if show_on_wall else "",
        show_on_wall=show_on_wall,
        stripe_checkout_session_id=session_id,
    )
    return url


def give_by_card(
    *,
    email: str,
    amount: Decimal,
    currency: str,
    monthly: bool,
    public_name: str,
    show_on_wall: bool,
    user,
    card: dict,
) -> Donation:
    """Fake mode: charge the test card once, or subscribe it monthly; returns the
    donation, still pending: Stripe's events (payment_intent.succeeded for a one-off
    gift, invoice.payment_succeeded for each month) record the money.

    The donation is saved first, so an event that arrives before Stripe's answer finds
    it by the reference in its metadata. If Stripe refuses or cannot be reached, it is
    deleted again and CardRefused or PaymentServiceUnavailable says so.
    """
    frequency = Donation.Frequency.MONTHLY if monthly else Donation.Frequency.ONCE
    donation = Donation.objects.create(
        email=email,
        user=user if user is not None and user.is_authenticated else None,
        amount=amount,
        currency=currency,
        frequency=frequency,
        public_name=public_name if show_on_wall else "",
        show_on_wall=show_on_wall,
    )
    reference = str(donation.reference)
    try:
        payment_method = stripe_gateway.card_payment_method(card)
        if monthly:
            customer_id, subscription_id = stripe_gateway.subscribe_monthly(
                reference=reference,
                email=email,
                payment_method=payment_method,
                amount=amount,
                currency=currency,
            )
            ids = {"stripe_customer_id": customer_id, "stripe_subscription_id": subscription_id}
        else:
            intent_id = stripe_gateway.charge_once(
                reference=reference, payment_method=payment_method, amount=amount, currency=currency
            )
            ids = {"stripe_payment_intent_id": intent_id}
    except stripe_gateway.StripeError as error:
        Donation.objects.filter(pk=donation.pk, gifts__isnull=True).delete()
        if isinstance(error, stripe_gateway.UNREACHABLE) or (error.http_status or 500) >= 500:
            logger.warning("Stripe could not be reached for a card gift: %s", type(error).__name__)
            raise PaymentServiceUnavailable from error
        raise CardRefused(error.user_message or "Stripe refused the card.") from error
    # Only the ids: an event may have moved the status meanwhile.
    Donation.objects.filter(pk=donation.pk).update(**ids)
    donation.refresh_from_db()
    return donation


def payment_state(donation: Donation | None) -> str:
    """What the thank-you page may say of a gift: "confirmed" once Stripe reported money,
    "failed" when it reported none would come, "pending" until it reports, "none" when
    there is no gift at all."""
    if donation is None:
        return "none"
    if donation.gifts.exists():
        return "confirmed"
    if donation.status in (D.PAST_DUE, D.CANCELLED):
        return "failed"
    return "pending"


def find(reference: str) -> Donation | None:
    try:
        return Donation.objects.filter(reference=uuid.UUID(str(reference))).first()
    except ValueError:
        return None


def stripe_time(timestamp) -> datetime:
    try:
        return datetime.fromtimestamp(int(timestamp), tz=UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return datetime.now(tz=UTC)


def _link_refunds(donation: Donation):
    ids = Q(customer_id=donation.stripe_customer_id) if donation.stripe_customer_id else Q(pk=None)
    if donation.stripe_payment_intent_id:
        ids |= Q(payment_intent_id=donation.stripe_payment_intent_id)
    invoices = list(donation.gifts.values_list("stripe_id", flat=True))
    if invoices:
        ids |= Q(invoice_id__in=invoices)
    # A refund in another currency is not this gift's (its event was rejected if the gift
    # was known; one that came first stays unlinked and out of the funding figures).
    unlinked = Refund.objects.filter(donation__isnull=True, currency=donation.currency.upper())
    unlinked.filter(ids).update(donation=donation)


@transaction.atomic
def checkout_completed(
    donation: Donation,
    *,
    customer_id: str,
    subscription_id: str,
    payment_intent_id: str,
    amount: Decimal,
    currency: str,
    paid: bool,
    created,
    email: str = "",
):
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    donation.email = donation.email or email
    donation.stripe_customer_id = customer_id or donation.stripe_customer_id
    donation.stripe_subscription_id = subscription_id or donation.stripe_subscription_id
    donation.stripe_payment_intent_id = payment_intent_id or donation.stripe_payment_intent_id
    if donation.status in (D.PENDING, D.PAST_DUE):
        donation.move_to(donation.paid_status)
    donation.save()
    # A monthly gift's money arrives with each paid invoice; a one-off gift's with this.
    if paid and donation.frequency == Donation.Frequency.ONCE and payment_intent_id:
        record_gift(
            donation,
            stripe_id=payment_intent_id,
            amount=amount,
            currency=currency,
            paid_at=stripe_time(created),
        )
    _link_refunds(donation)


@transaction.atomic
def record_gift(
    donation: Donation,
    *,
    stripe_id: str,
    amount: Decimal,
    currency: str,
    paid_at: datetime,
    receipt_url: str = "",
    email: str = "",
) -> Gift:
    if email and not donation.email:
        Donation.objects.filter(pk=donation.pk, email="").update(email=email)
        donation.email = email
    gift, created = Gift.objects.get_or_create(
        stripe_id=stripe_id,
        defaults={
            "donation": donation,
            "amount": amount,
            "currency": currency.upper(),
            "paid_at": paid_at,
            "receipt_url": receipt_url,
        },
    )
    if created:
        if donation.status in (D.PENDING, D.PAST_DUE):
            donation.move_to(donation.paid_status)
            donation.save(update_fields=["status", "updated_at"])
        _link_refunds(donation)
        queue.enqueue(mail.RECEIPT, gift_id=gift.pk)
    return gift


@transaction.atomic
def payment_failed(donation: Donation):
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    if not donation.can_move_to(D.PAST_DUE):
        return
    donation.move_to(D.PAST_DUE)
    donation.save(update_fields=["status", "updated_at"])
    queue.enqueue(mail.PAYMENT_FAILED, donation_id=donation.pk)


@transaction.atomic
def subscription_cancelled(donation: Donation):
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    donation.move_to(D.CANCELLED)
    donation.save(update_fields=["status", "updated_at"])


def donation_for_stripe_ids(
    *, subscription_id="", payment_intent_id="", customer_id="", invoice_id=""
) -> Donation | None:
    lookups = [
        ("stripe_subscription_id", subscription_id),
        ("stripe_payment_intent_id", payment_intent_id),
        ("stripe_customer_id", customer_id),
    ]
    for field, value in lookups:
        if value:
            found = Donation.objects.filter(**{field: value}).first()
            if found:
                return found
    if invoice_id:
        gift = Gift.objects.filter(stripe_id=invoice_id).select_related("donation").first()
        if gift:
            return gift.donation
    return None


@transaction.atomic
def record_refund(
    *,
    charge_id: str,
    payment_intent_id: str,
    invoice_id: str,
    customer_id: str,
    amount: Decimal,
    currency: str,
    refunded_at: datetime,
) -> Refund:
    """Keep the refunded amount of a charge: the largest total Stripe reports for it.

    Stripe's ``amount_refunded`` is cumulative and its events may arrive in any order, so
    an older, smaller total never replaces a larger one. A refund of a known gift in
    another currency, or of more than the gift, is rejected (it would make the funding
    figures negative)."""
    donation = donation_for_stripe_ids(
        payment_intent_id=payment_intent_id, customer_id=customer_id, invoice_id=invoice_id
    )
    currency = currency.upper()
    gift = Gift.objects.filter(stripe_id__in=[i for i in (payment_intent_id, invoice_id) if i])
    gift = gift.first()
    if gift is not None and gift.currency != currency:
        raise Rejected(f"it refunds in {currency} a gift made in {gift.currency}")
    if gift is not None and amount > gift.amount:
        raise Rejected(f"it refunds {amount} {currency} of a gift of {gift.amount}")
    refund = Refund.objects.select_for_update().filter(stripe_charge_id=charge_id).first()
    if refund is not None and refund.amount >= amount:
        return refund  # an older total, delivered late
    refund, _ = Refund.objects.update_or_create(
        stripe_charge_id=charge_id,
        defaults={
            "donation": donation,
            "payment_intent_id": payment_intent_id,
            "invoice_id": invoice_id,
            "customer_id": customer_id,
            "amount": amount,
            "currency": currency,
            "refunded_at": refunded_at,
        },
    )
    return refund


@transaction.atomic
def cancel_monthly(donation: Donation) -> Donation:
    """The donor stops a monthly gift on this site: Stripe is asked to cancel the
    subscription after the commit (through the outbox, retried until it answers), and
    its customer.subscription.deleted event marks the gift cancelled. Asking twice asks
    once. Raises NotCancellable for a gift that is not running."""
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    if donation.frequency != Donation.Frequency.MONTHLY:
        raise NotCancellable("A one-off gift has nothing to cancel.")
    if donation.status == D.CANCELLED:
        raise NotCancellable("This monthly gift is already cancelled.")
    if not donation.stripe_subscription_id:
        raise NotCancellable("Stripe has not started this monthly gift yet: nothing to cancel.")
    if donation.cancel_requested_at is None:
        donation.cancel_requested_at = timezone.now()
        donation.save(update_fields=["cancel_requested_at", "updated_at"])
        queue.enqueue(
            stripe_gateway.CANCEL_SUBSCRIPTION, subscription_id=donation.stripe_subscription_id
        )
    return donation


def portal_url(donation: Donation, return_url: str) -> str:
    if not donation.stripe_customer_id:
        raise PaymentServiceUnavailable("This gift has not reached Stripe yet.")
    try:
        return stripe_gateway.customer_portal_url(donation.stripe_customer_id, return_url)
    except stripe_gateway.StripeError as error:
        logger.warning("Stripe could not open a customer portal: %s", type(error).__name__)
        raise PaymentServiceUnavailable from error


def request_manage_links(email: str):
    """Mail the manage links of every gift made with this address (silently none)."""
    queue.enqueue(mail.MANAGE_LINKS, email=email)
