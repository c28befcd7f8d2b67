"""Recording what Stripe reports of a gift: a completed checkout, each payment, a failed
one, the end of a monthly gift, refunds.

Every recording function is idempotent (gifts and refunds are keyed by their Stripe
ids), so Stripe's replays and out-of-order deliveries leave the same state.
"""

from datetime import UTC, datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import Q

from donations import documents, mail
from donations.models import Donation, Gift, Refund
from outbox import queue
from payments.validation import Rejected

D = Donation.Status


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
        documents.issue_receipt(gift)
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
    if donation.status == D.CANCELLED:
        return  # a repeated event: the donor heard once
    donation.move_to(D.CANCELLED)
    donation.save(update_fields=["status", "updated_at"])
    queue.enqueue(mail.CANCELLED, donation_id=donation.pk)


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
