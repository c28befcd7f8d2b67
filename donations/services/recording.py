"""Recording what Stripe reports of a gift: a one-off payment, each paid invoice of a
monthly gift, a failed payment, the end of a monthly gift. The payment itself is kept by the payments app
(``payments.recording``), which also records refunds and disputes of every payment.

Every recording function is idempotent (gifts are keyed by their Stripe ids), so Stripe's
replays and out-of-order deliveries leave the same state.
"""

import logging
from datetime import UTC, datetime

from django.db import transaction

from core import transitions
from donations import documents, mail
from donations.models import Donation, Gift
from outbox import queue
from payments import recording
from payments.events import Rejected

D = Donation.Status
logger = logging.getLogger(__name__)


def stripe_time(timestamp) -> datetime:
    try:
        return datetime.fromtimestamp(int(timestamp), tz=UTC)
    except (TypeError, ValueError, OverflowError, OSError):
        return datetime.now(tz=UTC)


@transaction.atomic
def one_off_paid(
    donation: Donation,
    *,
    customer_id: str,
    payment_intent_id: str,
    amount_minor: int,
    currency: str,
    charge_id: str = "",
    created,
    email: str = "",
) -> None:
    """A one-off gift's payment intent succeeded: the donation is paid and its gift kept
    (a monthly gift's money arrives with each paid invoice instead, ``record_gift``)."""
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    donation.email = donation.email or email
    donation.stripe_customer_id = customer_id or donation.stripe_customer_id
    donation.stripe_payment_intent_id = payment_intent_id or donation.stripe_payment_intent_id
    if transitions.may(donation, donation.pay_verb):
        transitions.apply(
            donation, donation.pay_verb, note=f"Stripe: {payment_intent_id} succeeded"
        )
    else:
        donation.save()
    record_gift(
        donation,
        stripe_id=payment_intent_id,
        amount_minor=amount_minor,
        currency=currency,
        paid_at=stripe_time(created),
        payment_intent_id=payment_intent_id,
        charge_id=charge_id,
    )


@transaction.atomic
def record_gift(
    donation: Donation,
    *,
    stripe_id: str,
    amount_minor: int,
    currency: str,
    paid_at: datetime,
    receipt_url: str = "",
    email: str = "",
    payment_intent_id: str = "",
    charge_id: str = "",
) -> Gift:
    """A payment of the donation, in its own currency (another would count the gift in a
    currency it was never given in: rejected). A one-off gift is paid once: a second,
    different payment for it (another intent, an invoice) is rejected and left to staff;
    the same payment reported again (its invoice, its intent, its charge) counts once."""
    if currency.upper() != donation.currency.upper():
        raise Rejected(f"it pays in {currency.upper()} a gift made in {donation.currency.upper()}")
    if email and not donation.email:
        Donation.objects.filter(pk=donation.pk, email="").update(email=email)
        donation.email = email
    payment, created = recording.record_payment(
        donation,
        stripe_id=stripe_id,
        amount_minor=amount_minor,
        currency=currency,
        paid_at=paid_at,
        receipt_url=receipt_url,
        payment_intent_id=payment_intent_id,
        charge_id=charge_id,
        only_one=donation.frequency == Donation.Frequency.ONCE,
    )
    if created:
        asked_to_stop = donation.cancel_requested_at
        if asked_to_stop and paid_at > asked_to_stop:
            # Stripe took it before the site's cancellation reached it: the money was
            # taken, so it is recorded (with its receipt); staff may refund it.
            logger.warning(
                "Donation %s: payment %s charged after the donor asked to stop (%s)",
                donation.pk,
                stripe_id,
                asked_to_stop.isoformat(),
            )
        if transitions.may(donation, donation.pay_verb):
            transitions.apply(
                donation, donation.pay_verb, note=f"Stripe: {stripe_id} paid", only=("updated_at",)
            )
        documents.issue_receipt(Gift.objects.get(pk=payment.pk))
        queue.enqueue(mail.RECEIPT, gift_id=payment.pk)
    return Gift.objects.get(pk=payment.pk)


@transaction.atomic
def payment_failed(donation: Donation) -> None:
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    if not transitions.may(donation, "fail_payment"):
        return
    transitions.apply(
        donation, "fail_payment", note="Stripe: the payment failed", only=("updated_at",)
    )
    queue.enqueue(mail.PAYMENT_FAILED, donation_id=donation.pk)


@transaction.atomic
def subscription_cancelled(donation: Donation) -> None:
    donation = Donation.objects.select_for_update().get(pk=donation.pk)
    if donation.status == D.CANCELLED:
        return  # a repeated event: the donor heard once
    transitions.apply(
        donation, "cancel", note="Stripe: the subscription ended", only=("updated_at",)
    )
    queue.enqueue(mail.CANCELLED, donation_id=donation.pk)


def donation_for_stripe_ids(
    *,
    subscription_id: str = "",
    payment_intent_id: str = "",
    customer_id: str = "",
    invoice_id: str = "",
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
        gift = Gift.objects.filter(stripe_id=invoice_id).first()
        if gift:
            return gift.donation
    return None
