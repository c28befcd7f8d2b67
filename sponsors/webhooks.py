"""The sponsorships' Stripe event handlers, registered with ``payments.dispatch``.

``payments.webhooks`` has verified the event, checked its values against what the
models hold and recorded it once. Every handler decides from the object it carries, not
from the order of arrival, and every effect is idempotent (payments are keyed by their
Stripe id), so replays and out-of-order delivery leave the same state. An object that is
not a sponsorship's (a donation's invoice, an unknown sponsorship) raises ``Ignored``.
"""

from datetime import UTC, datetime

from payments.dispatch import Ignored
from payments.gateway import invoice_subscription_details, metadata_id
from payments.models import STRIPE_ID_MAX_LENGTH
from payments.money import from_minor_units
from payments.validation import LATEST_TIMESTAMP, MAX_MINOR_UNITS, paid_amount
from sponsors import stripe_gateway
from sponsors.models import Payment, Sponsorship, Tier
from sponsors.services import billing, lifecycle

STRIPE_ID_LENGTH = STRIPE_ID_MAX_LENGTH
RECEIPT_URL_LENGTH = Payment._meta.get_field("receipt_url").max_length


def sold_currencies():
    """The currencies of the tiers (registered with payments.money)."""
    return Tier.objects.order_by().values_list("currency", flat=True).distinct()


def _text(obj: dict, key: str, max_length: int = STRIPE_ID_LENGTH) -> str:
    value = obj.get(key)
    return value if isinstance(value, str) and 0 < len(value) <= max_length else ""


def _when(obj: dict) -> datetime:
    timestamp = obj.get("created")
    if type(timestamp) is not int or not 0 <= timestamp <= LATEST_TIMESTAMP:
        raise Ignored(f"created is not a Unix time: {timestamp!r:.40}")
    return datetime.fromtimestamp(timestamp, tz=UTC)


def _subscription_of(obj) -> str:
    return _text(obj, "subscription") or _text(invoice_subscription_details(obj), "subscription")


def _sponsorship_for(obj) -> int | None:
    reference = metadata_id(obj, "sponsorship")
    if reference is not None:
        return Sponsorship.objects.filter(pk=reference).values_list("pk", flat=True).first()
    subscription = _subscription_of(obj)
    if subscription:
        known = (
            Sponsorship.objects.filter(stripe_subscription_id=subscription)
            .values_list("pk", flat=True)
            .first()
        )
        return known or _named_by_subscription(subscription)
    return None


def _named_by_subscription(subscription_id: str) -> int | None:
    """An invoice can arrive before the site has stored the subscription it belongs to
    (the pay request is still waiting for Stripe's answer), and an invoice does not always
    carry the subscription's metadata (localstripe's never does): ask Stripe for it."""
    try:
        metadata = stripe_gateway.subscription_metadata(subscription_id)
    except stripe_gateway.StripeError:
        return None
    reference = _text(metadata, "sponsorship", max_length=18)
    if not reference.isdigit():
        return None
    return Sponsorship.objects.filter(pk=int(reference)).values_list("pk", flat=True).first()


def _required_sponsorship(obj) -> int:
    sponsorship = _sponsorship_for(obj)
    if sponsorship is None:
        raise Ignored("it matches no sponsorship")
    return sponsorship


def _required_id(obj) -> str:
    stripe_id = _text(obj, "id")
    if not stripe_id:
        raise Ignored("its object has no usable id")
    return stripe_id


def payment_succeeded(obj):
    stripe_id = _required_id(obj)
    sponsorship = _required_sponsorship(obj)
    amount = paid_amount(obj)
    if type(amount) is not int or not 0 < amount <= MAX_MINOR_UNITS:
        raise Ignored(f"the amount is not a positive whole number: {amount!r:.40}")
    currency = obj.get("currency")
    if not (isinstance(currency, str) and len(currency) == 3 and currency.isalpha()):
        raise Ignored(f"the currency is not an ISO code: {currency!r:.40}")
    billing.record_payment(
        sponsorship,
        stripe_id=stripe_id,
        amount=from_minor_units(amount, currency),
        currency=currency,
        paid_at=_when(obj),
        receipt_url=_text(obj, "hosted_invoice_url", RECEIPT_URL_LENGTH),
    )


def payment_failed(obj):
    billing.payment_failed(_required_sponsorship(obj))


def checkout_completed(obj):
    session_id = _required_id(obj)
    billing.link_stripe_objects(
        _required_sponsorship(obj),
        subscription_id=_text(obj, "subscription"),
        payment_intent_id=_text(obj, "payment_intent"),
        note=f"paid through Stripe Checkout ({session_id})",
    )


def subscription_deleted(obj):
    subscription_id = _required_id(obj)
    sponsorship = _sponsorship_for(obj)  # from the subscription's own metadata
    if (
        sponsorship is None
        and not Sponsorship.objects.filter(stripe_subscription_id=subscription_id).exists()
    ):
        raise Ignored("it matches no sponsorship")
    if sponsorship is not None:
        billing.link_stripe_objects(sponsorship, subscription_id=subscription_id)
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
