"""The donations' Stripe event handlers, registered with ``payments.dispatch``.

``payments.webhooks`` has verified the event, checked its values against what the
models hold and recorded it once. An object that is not about a known donation raises
``Ignored``; every effect is idempotent (gifts and refunds are keyed by their Stripe ids).
"""

from decimal import Decimal

from donations import services
from payments.dispatch import Ignored
from payments.gateway import invoice_subscription_details


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


def _line_metadata(obj: dict) -> list:
    """The metadata of an invoice's lines: a subscription's line carries the
    subscription's (Stripe) or its item's (localstripe, whose invoices carry no other)."""
    lines = obj.get("lines")
    data = lines.get("data") if isinstance(lines, dict) else None
    if not isinstance(data, list):
        return []
    return [line.get("metadata") for line in data if isinstance(line, dict)]


def _reference(obj: dict) -> str:
    for metadata in (
        obj.get("metadata"),
        invoice_subscription_details(obj).get("metadata"),
        *_line_metadata(obj),
    ):
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


def payment_intent_succeeded(obj: dict):
    """A one-off gift paid: what records it in fake mode (the card typed on the donate
    page); live, Checkout's event has usually recorded it already (same key)."""
    if _text(obj, "invoice"):
        raise Ignored("the payment of an invoice: the invoice's event records it")
    intent_id = _text(obj, "id")
    reference = _reference(obj)
    donation = services.find(reference) if reference else None
    if donation is None and intent_id:
        donation = services.donation_for_stripe_ids(payment_intent_id=intent_id)
    if donation is None or donation.frequency != donation.Frequency.ONCE:
        raise Ignored("not about a known one-off donation")
    received = "amount_received" if obj.get("amount_received") is not None else "amount"
    services.checkout_completed(
        donation,
        customer_id=_text(obj, "customer"),
        subscription_id="",
        payment_intent_id=intent_id,
        amount=_minor_units(obj, received),
        currency=_currency(obj),
        paid=True,
        created=obj.get("created"),
        email=_email({"email": obj.get("receipt_email")}),
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
    "payment_intent.succeeded": payment_intent_succeeded,
    # Stripe sends both for one invoice (the gift is keyed by it); localstripe sends the second.
    "invoice.paid": invoice_paid,
    "invoice.payment_succeeded": invoice_paid,
    "invoice.payment_failed": invoice_payment_failed,
    "customer.subscription.deleted": subscription_deleted,
    "charge.refunded": charge_refunded,
}
