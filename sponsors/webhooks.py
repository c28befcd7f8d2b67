"""Stripe webhook events: verified, then processed here exactly once each.

Every handler decides from the object it carries, not from the order of arrival, and
every effect is idempotent (payments are keyed by their Stripe id), so replays and
out-of-order delivery leave the same state.

A correctly signed event is still checked before it is used: one that is not a Stripe
event at all (not a JSON object, no id or type) is refused with 400; one whose object
this site cannot use (no object, an unknown sponsorship, an amount that is not a whole
number of cents) is acknowledged as ignored with a log line, so Stripe stops resending it.
"""

import json
import logging
from datetime import UTC, datetime
from decimal import Decimal

from django.db import IntegrityError, transaction

from sponsors import services, stripe_gateway
from sponsors.models import Payment, Sponsorship, StripeEvent

logger = logging.getLogger(__name__)

STRIPE_ID_LENGTH = StripeEvent._meta.get_field("event_id").max_length
RECEIPT_URL_LENGTH = Payment._meta.get_field("receipt_url").max_length
# Payment.amount holds 10 digits, two of them cents.
MAX_MINOR_UNITS = 10 ** Payment._meta.get_field("amount").max_digits - 1
LATEST_TIMESTAMP = 253402300799  # 9999-12-31T23:59:59Z, the last moment a datetime holds


class Refused(Exception):
    """Not a genuine Stripe event: answered with 400."""


class Ignored(Exception):
    """A genuine event this site cannot use: acknowledged, logged, changes nothing."""


def _text(obj: dict, key: str, max_length: int = STRIPE_ID_LENGTH) -> str:
    value = obj.get(key)
    return value if isinstance(value, str) and 0 < len(value) <= max_length else ""


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


def _when(obj: dict) -> datetime:
    timestamp = obj.get("created", 0)
    if type(timestamp) is not int or not 0 <= timestamp <= LATEST_TIMESTAMP:
        raise Ignored(f"created is not a Unix time: {timestamp!r:.40}")
    return datetime.fromtimestamp(timestamp, tz=UTC)


def _subscription_of(obj) -> str:
    return _text(obj, "subscription") or _text(
        stripe_gateway.invoice_subscription_details(obj), "subscription"
    )


def _sponsorship_for(obj) -> int | None:
    for metadata in (
        obj.get("metadata"),
        stripe_gateway.invoice_subscription_details(obj).get("metadata"),
    ):
        reference = _text(_mapping(metadata), "sponsorship", max_length=18)
        if reference.isdigit():
            return (
                Sponsorship.objects.filter(pk=int(reference)).values_list("pk", flat=True).first()
            )
    subscription = _subscription_of(obj)
    if subscription:
        return (
            Sponsorship.objects.filter(stripe_subscription_id=subscription)
            .values_list("pk", flat=True)
            .first()
        )
    return None


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
    amount = obj.get("amount_received", obj.get("amount_paid", obj.get("amount", 0)))
    if type(amount) is not int or not 0 <= amount <= MAX_MINOR_UNITS:
        raise Ignored(f"the amount is not a whole number of cents: {amount!r:.40}")
    currency = obj.get("currency", "eur")
    if not (isinstance(currency, str) and len(currency) == 3 and currency.isalpha()):
        raise Ignored(f"the currency is not an ISO code: {currency!r:.40}")
    services.record_payment(
        sponsorship,
        stripe_id=stripe_id,
        amount=Decimal(amount) / 100,
        currency=currency,
        paid_at=_when(obj),
        receipt_url=_text(obj, "hosted_invoice_url", RECEIPT_URL_LENGTH),
    )


def payment_failed(obj):
    services.payment_failed(_required_sponsorship(obj))


def checkout_completed(obj):
    session_id = _required_id(obj)
    services.link_stripe_objects(
        _required_sponsorship(obj),
        subscription_id=_text(obj, "subscription"),
        payment_intent_id=_text(obj, "payment_intent"),
        note=f"paid through Stripe Checkout ({session_id})",
    )


def subscription_deleted(obj):
    subscription_id = _required_id(obj)
    sponsorship = _sponsorship_for(obj)  # from the subscription's own metadata
    if sponsorship is not None:
        services.link_stripe_objects(sponsorship, subscription_id=subscription_id)
    services.subscription_ended(subscription_id)


HANDLERS = {
    "checkout.session.completed": checkout_completed,
    "payment_intent.succeeded": payment_succeeded,
    "invoice.paid": payment_succeeded,
    "invoice.payment_succeeded": payment_succeeded,
    "payment_intent.payment_failed": payment_failed,
    "invoice.payment_failed": payment_failed,
    "customer.subscription.deleted": subscription_deleted,
}


def receive(payload: bytes, signature: str) -> str:
    """Verify, parse and process one delivery. Raises Refused; otherwise see ``process``."""
    try:
        event = json.loads(stripe_gateway.verify_webhook(payload, signature))
    except (ValueError, RecursionError, stripe_gateway.stripe.SignatureVerificationError) as error:
        raise Refused("invalid payload or signature") from error
    return process(event)


def process(event) -> str:
    """Returns "processed", "duplicate" or "ignored"; raises Refused for a non-event."""
    if not isinstance(event, dict):
        raise Refused("the payload is not a Stripe event object")
    event_id, event_type = _text(event, "id"), _text(event, "type")
    if not (event_id and event_type):
        raise Refused("the event has no id or type")
    try:
        with transaction.atomic():
            StripeEvent.objects.create(event_id=event_id, type=event_type)
            handler = HANDLERS.get(event_type)
            if handler is None:
                return "ignored"
            try:
                obj = _mapping(event.get("data")).get("object")
                if not isinstance(obj, dict):
                    raise Ignored("it carries no data.object")
                with transaction.atomic():
                    handler(obj)
            except Ignored as reason:
                logger.warning("Stripe event %s (%s) ignored: %s", event_id, event_type, reason)
                return "ignored"
            return "processed"
    except IntegrityError:
        return "duplicate"
