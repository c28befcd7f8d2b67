"""Stripe webhook events: verified by the view, processed here exactly once each.

Every handler decides from the object it carries, not from the order of arrival, and
every effect is idempotent (payments are keyed by their Stripe id), so replays and
out-of-order delivery leave the same state.
"""

import logging
from datetime import UTC, datetime
from decimal import Decimal

from django.db import IntegrityError, transaction

from sponsors import services
from sponsors.models import Sponsorship, StripeEvent

logger = logging.getLogger(__name__)


def _when(timestamp):
    return datetime.fromtimestamp(int(timestamp or 0), tz=UTC)


def _subscription_details(obj) -> dict:
    """An invoice's subscription details: top level until 2025 (``subscription_details``,
    which is null on one-off invoices), under ``parent.subscription_details`` since."""
    parent = obj.get("parent") or {}
    return parent.get("subscription_details") or obj.get("subscription_details") or {}


def _subscription_of(obj) -> str:
    return obj.get("subscription") or _subscription_details(obj).get("subscription") or ""


def _sponsorship_for(obj) -> int | None:
    for metadata in (obj.get("metadata"), _subscription_details(obj).get("metadata")):
        if (metadata or {}).get("sponsorship", "").isdigit():
            return int(metadata["sponsorship"])
    subscription = _subscription_of(obj)
    if subscription:
        found = (
            Sponsorship.objects.filter(stripe_subscription_id=subscription)
            .values_list("pk", flat=True)
            .first()
        )
        return found
    return None


def payment_succeeded(obj):
    sponsorship = _sponsorship_for(obj)
    if sponsorship is None:
        logger.warning("payment %s matches no sponsorship", obj.get("id"))
        return
    amount = obj.get("amount_received", obj.get("amount_paid", obj.get("amount", 0)))
    services.record_payment(
        sponsorship, stripe_id=obj["id"], amount=Decimal(amount) / 100, currency=obj.get("currency", "eur"),
        paid_at=_when(obj.get("created")), receipt_url=obj.get("hosted_invoice_url") or "",
    )  # fmt: skip


def payment_failed(obj):
    sponsorship = _sponsorship_for(obj)
    if sponsorship is not None:
        from sponsors.tasks import send_sponsorship_mail

        transaction.on_commit(lambda: send_sponsorship_mail.delay(sponsorship, "payment_failed"))


def checkout_completed(obj):
    sponsorship = _sponsorship_for(obj)
    if sponsorship is None:
        logger.warning("checkout session %s matches no sponsorship", obj.get("id"))
        return
    services.link_stripe_objects(
        sponsorship, subscription_id=obj.get("subscription") or "",
        payment_intent_id=obj.get("payment_intent") or "",
        note=f"paid through Stripe Checkout ({obj.get('id')})",
    )  # fmt: skip


def subscription_deleted(obj):
    sponsorship = _sponsorship_for(obj)  # from the subscription's own metadata
    if sponsorship is not None:
        services.link_stripe_objects(sponsorship, subscription_id=obj["id"])
    services.subscription_ended(obj["id"])


HANDLERS = {
    "checkout.session.completed": checkout_completed,
    "payment_intent.succeeded": payment_succeeded,
    "invoice.paid": payment_succeeded,
    "invoice.payment_succeeded": payment_succeeded,
    "payment_intent.payment_failed": payment_failed,
    "invoice.payment_failed": payment_failed,
    "customer.subscription.deleted": subscription_deleted,
}


def process(event: dict) -> str:
    """Returns "processed", "duplicate" or "ignored"."""
    try:
        with transaction.atomic():
            StripeEvent.objects.create(event_id=event["id"], type=event["type"])
            handler = HANDLERS.get(event["type"])
            if handler is None:
                return "ignored"
            handler(event["data"]["object"])
            return "processed"
    except IntegrityError:
        return "duplicate"
