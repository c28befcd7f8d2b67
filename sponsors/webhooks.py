"""The sponsorships' Stripe event handlers, registered with ``payments.dispatch``.

``payments.webhooks`` has verified the event, checked its values against what the
models hold, recorded it once and read it into one ``StripeEventData``, which each
handler receives. Every handler decides from the object it carries, not
from the order of arrival, and every effect is idempotent (payments are keyed by their
Stripe id), so replays and out-of-order delivery leave the same state. An object that is
not a sponsorship's (a donation's invoice, an unknown sponsorship) raises ``Ignored``.
"""

from datetime import UTC, datetime

from payments.dispatch import Ignored
from payments.events import METADATA_ID, StripeEventData
from sponsors import stripe_gateway
from sponsors.models import Payment, Sponsorship, Tier
from sponsors.services import billing, lifecycle

RECEIPT_URL_LENGTH = Payment._meta.get_field("receipt_url").max_length


def sold_currencies():
    """The currencies of the tiers (registered with payments.money)."""
    return Tier.objects.order_by().values_list("currency", flat=True).distinct()


def _when(event: StripeEventData) -> datetime:
    if event.created is None:
        raise Ignored("it does not say when it happened")
    return datetime.fromtimestamp(event.created, tz=UTC)


def _sponsorship_for(event: StripeEventData) -> int | None:
    reference = event.metadata_id("sponsorship")
    if reference is not None:
        return Sponsorship.objects.filter(pk=reference).values_list("pk", flat=True).first()
    if event.subscription:
        known = (
            Sponsorship.objects.filter(stripe_subscription_id=event.subscription)
            .values_list("pk", flat=True)
            .first()
        )
        return known or _named_by_subscription(event.subscription)
    return None


def _named_by_subscription(subscription_id: str) -> int | None:
    """An invoice can arrive before the site has stored the subscription it belongs to
    (the pay request is still waiting for Stripe's answer), and an invoice does not always
    carry the subscription's metadata (localstripe's never does): ask Stripe for it."""
    try:
        metadata = stripe_gateway.subscription_metadata(subscription_id)
    except stripe_gateway.StripeError:
        return None
    reference = metadata.get("sponsorship")
    if not (isinstance(reference, str) and METADATA_ID.fullmatch(reference)):
        return None
    return Sponsorship.objects.filter(pk=int(reference)).values_list("pk", flat=True).first()


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
    stripe_id = _required_id(event)
    sponsorship = _required_sponsorship(event)
    money = event.money(event.amount)  # rejects an event that names no currency
    if money is None or event.amount <= 0:
        raise Ignored(f"the amount is not a positive whole number: {event.amount!r:.40}")
    amount, currency = money
    receipt_url = event.receipt_url if len(event.receipt_url) <= RECEIPT_URL_LENGTH else ""
    billing.record_payment(
        sponsorship,
        stripe_id=stripe_id,
        amount=amount,
        currency=currency,
        paid_at=_when(event),
        receipt_url=receipt_url,
    )


def payment_failed(event: StripeEventData):
    billing.payment_failed(_required_sponsorship(event))


def checkout_completed(event: StripeEventData):
    session_id = _required_id(event)
    billing.link_stripe_objects(
        _required_sponsorship(event),
        subscription_id=event.subscription,
        payment_intent_id=event.payment_intent,
        note=f"paid through Stripe Checkout ({session_id})",
    )


def subscription_deleted(event: StripeEventData):
    """Ends the sponsorship whose subscription it is now. A subscription the site let go
    (its first payment failed, sponsors.services.paying) is no sponsorship's any more:
    its end ends nothing, and the sponsor may pay again."""
    subscription_id = _required_id(event)
    if not Sponsorship.objects.filter(stripe_subscription_id=subscription_id).exists():
        raise Ignored("it matches no sponsorship's current subscription")
    lifecycle.subscription_ended(subscription_id)


HANDLERS = {
    "checkout.session.completed": checkout_completed,
    "payment_intent.succeeded": payment_succeeded,
    "invoice.paid": payment_succeeded,
    "invoice.payment_succeeded": payment_succeeded,
    "payment_intent.payment_failed": payment_failed,
    "invoice.payment_failed": payment_failed,
    "customer.subscription.deleted": subscription_deleted,
}
