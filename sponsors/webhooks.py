"""The sponsorships' Stripe event handlers, registered with ``payments.dispatch``.

``payments.webhooks`` has verified the event, checked its values against what the
models hold, recorded it once and read it into one ``StripeEventData``, which each
handler receives. Every handler decides from the object it carries, not
from the order of arrival, and every effect is idempotent (payments are keyed by their
Stripe id), so replays and out-of-order delivery leave the same state. An object that is
not a sponsorship's (a donation's invoice, an unknown sponsorship) raises ``Ignored``.
Refunds and disputes of a sponsorship's payment are the payments app's to record
(``payments.handlers``); none of these handlers calls Stripe.
"""

from datetime import UTC, datetime
from typing import cast

from payments.dispatch import Ignored
from payments.events import StripeEventData
from sponsors.models import Payment, Sponsorship, Tier
from sponsors.services import lifecycle, recording

RECEIPT_URL_LENGTH = cast(int, Payment._meta.get_field("receipt_url").max_length)


def sold_currencies():
    """The currencies of the tiers (registered with payments.money)."""
    return Tier.objects.order_by().values_list("currency", flat=True).distinct()


def knows_subscription(subscription_id: str) -> bool:
    """Registered with payments.dispatch: a sponsorship holds this subscription."""
    return Sponsorship.objects.filter(stripe_subscription_id=subscription_id).exists()


def _when(event: StripeEventData) -> datetime:
    if event.created is None:
        raise Ignored("it does not say when it happened")
    return datetime.fromtimestamp(event.created, tz=UTC)


def _sponsorship_for(event: StripeEventData) -> int | None:
    """The sponsorship the object's metadata names (an invoice's subscription's metadata
    too, which ``payments.webhooks`` fetched from Stripe before the transaction when the
    invoice carried none), else the one holding its subscription."""
    reference = event.metadata_id("sponsorship")
    if reference is not None:
        return Sponsorship.objects.filter(pk=reference).values_list("pk", flat=True).first()
    if event.subscription:
        return (
            Sponsorship.objects.filter(stripe_subscription_id=event.subscription)
            .values_list("pk", flat=True)
            .first()
        )
    return None


def _required_sponsorship(event: StripeEventData) -> int:
    sponsorship = _sponsorship_for(event)
    if sponsorship is None:
        raise Ignored("it matches no sponsorship")
    return sponsorship


def _required_id(event: StripeEventData) -> str:
    if not event.object_id:
        raise Ignored("its object has no usable id")
    return event.object_id


def payment_succeeded(event: StripeEventData):
    if event.type.startswith("payment_intent.") and event.invoice:
        raise Ignored("the payment of an invoice: the invoice's event records it")
    stripe_id = _required_id(event)
    sponsorship = _required_sponsorship(event)
    currency = event.required_currency()  # rejects an event that names no currency
    if event.amount is None or event.amount <= 0:
        raise Ignored(f"the amount is not a positive whole number: {event.amount!r:.40}")
    receipt_url = event.receipt_url if len(event.receipt_url) <= RECEIPT_URL_LENGTH else ""
    recording.record_payment(
        sponsorship,
        stripe_id=stripe_id,
        amount_minor=event.amount,
        currency=currency,
        paid_at=_when(event),
        receipt_url=receipt_url,
        payment_intent_id=event.payment_intent
        or (stripe_id if event.type.startswith("payment_intent.") else ""),
        charge_id=event.charge,
    )


def payment_failed(event: StripeEventData):
    recording.payment_failed(_required_sponsorship(event))


def subscription_deleted(event: StripeEventData):
    """Ends the sponsorship whose subscription it is now. A subscription the site let go
    (its first payment failed, sponsors.services.paying) is no sponsorship's any more:
    its end ends nothing, and the sponsor may pay again."""
    subscription_id = _required_id(event)
    if not Sponsorship.objects.filter(stripe_subscription_id=subscription_id).exists():
        raise Ignored("it matches no sponsorship's current subscription")
    lifecycle.subscription_ended(subscription_id)


def money_taken_back(sender, instance, **kwargs):
    """A refund or dispute was saved (``payments.recording``, from Stripe's event, inside
    the webhook's transaction): the term its payment bought follows the money kept.
    Connected to their saves in ``SponsorsConfig.ready()``."""
    if instance.payment_id is not None:
        recording.money_returned(instance.payment_id)


HANDLERS = {
    "payment_intent.succeeded": payment_succeeded,
    "invoice.paid": payment_succeeded,
    "invoice.payment_succeeded": payment_succeeded,
    "payment_intent.payment_failed": payment_failed,
    "invoice.payment_failed": payment_failed,
    "customer.subscription.deleted": subscription_deleted,
}
