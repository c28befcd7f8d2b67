"""Stripe events for donations: each processed once, in any order, never a 500.

The view has verified the signature. Here the event's shape is checked before anything
is read from it: an event that is not about a donation, or not shaped as Stripe shapes
it, is acknowledged as ignored (Stripe would otherwise retry it for days).
"""

import logging
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction

from donations import services
from donations.models import DonationStripeEvent
from sponsors.stripe_gateway import invoice_subscription_details

logger = logging.getLogger(__name__)


class Ignored(Exception):
    """The event is genuine but not one this app acts on; the reason is logged."""


def _text(obj: dict, key: str) -> str:
    value = obj.get(key)
    if isinstance(value, dict):  # an expanded object
        value = value.get("id")
    return value if isinstance(value, str) else ""


def _minor_units(obj: dict, key: str) -> Decimal:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Ignored(f"{key} is not a whole number of minor units")
    return Decimal(value) / 100


def _email(obj) -> str:
    if not isinstance(obj, dict):
        return ""
    email = obj.get("email") or obj.get("customer_email")
    return email[:254] if isinstance(email, str) and "@" in email else ""


def _currency(obj: dict) -> str:
    currency = obj.get("currency")
    if not isinstance(currency, str) or len(currency) != 3 or not currency.isalpha():
        raise Ignored("no currency")
    return currency


def _reference(obj: dict) -> str:
    for metadata in (obj.get("metadata"), invoice_subscription_details(obj).get("metadata")):
        if isinstance(metadata, dict) and isinstance(metadata.get("donation"), str):
            return metadata["donation"]
    return ""


def _donation(obj: dict):
    reference = _reference(obj)
    donation = services.find(reference) if reference else None
    if donation is None:
        subscription = _text(obj, "subscription") or _text(
            invoice_subscription_details(obj), "subscription"
        )
        donation = services.donation_for_stripe_ids(
            subscription_id=subscription, payment_intent_id=_text(obj, "payment_intent")
        )
    if donation is None:
        raise Ignored("not about a known donation")
    return donation


def checkout_completed(obj: dict):
    donation = _donation(obj)
    services.checkout_completed(
        donation,
        customer_id=_text(obj, "customer"),
        subscription_id=_text(obj, "subscription"),
        payment_intent_id=_text(obj, "payment_intent"),
        amount=_minor_units(obj, "amount_total"),
        currency=_currency(obj),
        paid=obj.get("payment_status") == "paid",
        created=obj.get("created"),
        email=_email(obj.get("customer_details")) or _email(obj),
    )


def invoice_paid(obj: dict):
    donation = _donation(obj)
    invoice_id = _text(obj, "id")
    if not invoice_id:
        raise Ignored("invoice without id")
    services.record_gift(
        donation,
        stripe_id=invoice_id,
        amount=_minor_units(obj, "amount_paid"),
        currency=_currency(obj),
        paid_at=services.stripe_time(obj.get("created")),
        receipt_url=_text(obj, "hosted_invoice_url"),
        email=_email(obj),
    )


def invoice_payment_failed(obj: dict):
    services.payment_failed(_donation(obj))


def subscription_deleted(obj: dict):
    donation = _donation(obj) if _reference(obj) else None
    if donation is None:
        donation = services.donation_for_stripe_ids(subscription_id=_text(obj, "id"))
    if donation is None:
        raise Ignored("not about a known donation")
    services.subscription_cancelled(donation)


def charge_refunded(obj: dict):
    charge_id = _text(obj, "id")
    if not charge_id:
        raise Ignored("charge without id")
    services.record_refund(
        charge_id=charge_id,
        payment_intent_id=_text(obj, "payment_intent"),
        invoice_id=_text(obj, "invoice"),
        customer_id=_text(obj, "customer"),
        amount=_minor_units(obj, "amount_refunded"),
        currency=_currency(obj),
        refunded_at=services.stripe_time(obj.get("created")),
    )


HANDLERS = {
    "checkout.session.completed": checkout_completed,
    "invoice.paid": invoice_paid,
    "invoice.payment_failed": invoice_payment_failed,
    "customer.subscription.deleted": subscription_deleted,
    "charge.refunded": charge_refunded,
}


def _handle(event_type, obj) -> str:
    handler = HANDLERS.get(event_type) if isinstance(event_type, str) else None
    if handler is None or not isinstance(obj, dict):
        return "ignored"
    try:
        with transaction.atomic():
            handler(obj)
    except (Ignored, InvalidOperation, ValueError) as reason:
        logger.info("donation webhook %s ignored: %s", event_type, reason)
        return "ignored"
    return "processed"


def process(event) -> str:
    """Returns "processed", "duplicate" or "ignored"."""
    if not isinstance(event, dict) or not isinstance(event.get("id"), str):
        logger.info("donation webhook: not an event object")
        return "ignored"
    data = event.get("data")
    try:
        with transaction.atomic():
            record = DonationStripeEvent.objects.create(
                event_id=event["id"][:255], type=str(event.get("type"))[:80], outcome="received"
            )
            record.outcome = _handle(
                event.get("type"), data.get("object") if isinstance(data, dict) else None
            )
            record.save(update_fields=["outcome"])
    except IntegrityError:
        return "duplicate"
    return record.outcome
