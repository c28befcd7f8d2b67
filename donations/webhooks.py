"""The donations' Stripe event handlers, registered with ``payments.dispatch``.

``payments.webhooks`` has verified the event, checked its values against what the
models hold, recorded it once and read it into one ``StripeEventData``, which each
handler receives. An object that is not about a known donation raises
``Ignored``; every effect is idempotent (gifts are keyed by their Stripe ids). Refunds and
disputes of a gift are the payments app's to record (``payments.handlers``).
"""

from django.conf import settings

from donations.models import Donation
from donations.services import giving, recording
from payments.dispatch import Ignored
from payments.events import StripeEventData


def sold_currencies() -> list[str]:
    """The currencies a gift may be made in (registered with payments.money)."""
    return settings.DONATION_CURRENCIES


def knows_subscription(subscription_id: str) -> bool:
    """Registered with payments.dispatch: a donation holds this subscription."""
    return Donation.objects.filter(stripe_subscription_id=subscription_id).exists()


def _money(event: StripeEventData) -> tuple[int, str]:
    """What the event pays, in the currency's minor unit, and its currency; an event that
    names no currency is rejected (``Rejected``), one without an amount ignored."""
    currency = event.required_currency()
    if event.amount is None:
        raise Ignored("it says no amount")
    return event.amount, currency


def _reference(event: StripeEventData) -> str:
    return event.metadata_text("donation", lines=True)


def _donation(event: StripeEventData):
    reference = _reference(event)
    donation = giving.find(reference) if reference else None
    if donation is None:
        donation = recording.donation_for_stripe_ids(
            subscription_id=event.subscription, payment_intent_id=event.payment_intent
        )
    if donation is None:
        raise Ignored("not about a known donation")
    return donation


def payment_intent_succeeded(event: StripeEventData):
    """A one-off gift paid (the card element on the donate page confirmed its intent)."""
    if event.invoice:
        raise Ignored("the payment of an invoice: the invoice's event records it")
    intent_id = event.object_id
    reference = _reference(event)
    donation = giving.find(reference) if reference else None
    if donation is None and intent_id:
        donation = recording.donation_for_stripe_ids(payment_intent_id=intent_id)
    if donation is None or donation.frequency != donation.Frequency.ONCE:
        raise Ignored("not about a known one-off donation")
    amount, currency = _money(event)
    recording.one_off_paid(
        donation,
        customer_id=event.customer,
        payment_intent_id=intent_id,
        amount_minor=amount,
        currency=currency,
        charge_id=event.charge,
        created=event.created,
        email=event.email,
    )


def invoice_paid(event: StripeEventData):
    donation = _donation(event)
    if not event.object_id:
        raise Ignored("invoice without id")
    amount, currency = _money(event)
    recording.record_gift(
        donation,
        stripe_id=event.object_id,
        amount_minor=amount,
        currency=currency,
        paid_at=recording.stripe_time(event.created),
        receipt_url=event.receipt_url,
        email=event.email,
        payment_intent_id=event.payment_intent,
        charge_id=event.charge,
    )


def invoice_payment_failed(event: StripeEventData):
    recording.payment_failed(_donation(event))


def subscription_deleted(event: StripeEventData):
    donation = _donation(event) if _reference(event) else None
    if donation is None:
        donation = recording.donation_for_stripe_ids(subscription_id=event.object_id)
    if donation is None:
        raise Ignored("not about a known donation")
    recording.subscription_cancelled(donation)


HANDLERS = {
    "payment_intent.succeeded": payment_intent_succeeded,
    # Stripe sends both for one invoice (the gift is keyed by it); localstripe sends the second.
    "invoice.paid": invoice_paid,
    "invoice.payment_succeeded": invoice_paid,
    "invoice.payment_failed": invoice_payment_failed,
    "customer.subscription.deleted": subscription_deleted,
}
