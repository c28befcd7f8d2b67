"""Payments' own Stripe event handlers: refunds and disputes, of whatever a payment paid
for (registered in ``PaymentsConfig.ready()``). Recorded by ``payments.recording``."""

from datetime import UTC, datetime

from payments import recording
from payments.dispatch import Ignored
from payments.events import StripeEventData


def _time(timestamp: int | None) -> datetime | None:
    """The time an event reports, as it reports it: ``recording.dated`` bounds it by the
    payment's date and now (the sender's clock is never trusted further)."""
    return None if timestamp is None else datetime.fromtimestamp(timestamp, tz=UTC)


def charge_refunded(event: StripeEventData) -> None:
    """Stripe's charge.refunded: ``amount_refunded`` is the charge's refunded total; the
    refund happened when the event was made (the charge's own ``created`` is its
    payment's date, not the refund's), or, with no such date, when it arrived."""
    if not event.object_id:
        raise Ignored("charge without id")
    currency = event.required_currency()
    recording.record_refund(
        charge_id=event.object_id,
        payment_intent_id=event.payment_intent,
        invoice_id=event.invoice,
        customer_id=event.customer,
        amount_minor=event.required_amount(),
        currency=currency,
        refunded_at=_time(event.occurred),
    )


def dispute_changed(event: StripeEventData) -> None:
    if not event.object_id:
        raise Ignored("dispute without id")
    if not (event.charge or event.payment_intent):
        raise Ignored("the dispute names no charge")
    recording.record_dispute(
        dispute_id=event.object_id,
        charge_id=event.charge,
        payment_intent_id=event.payment_intent,
        amount_minor=event.required_amount(),
        currency=event.required_currency(),
        status=event.status or "needs_response",
        opened_at=_time(event.created),
    )


HANDLERS = {
    "charge.refunded": charge_refunded,
    "charge.dispute.created": dispute_changed,
    "charge.dispute.updated": dispute_changed,
    "charge.dispute.closed": dispute_changed,
    "charge.dispute.funds_withdrawn": dispute_changed,
    "charge.dispute.funds_reinstated": dispute_changed,
}
