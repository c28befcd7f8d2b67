"""Stripe-shaped webhook events for donations, signed as Stripe signs them."""

import calendar
import json
from datetime import date

from tests.sponsors.helpers import event as sponsorship_event
from tests.sponsors.helpers import sign

WEBHOOK_SECRET = "whsec_test_donations"
URL = "/stripe/webhook/"


def post(client, event, secret=WEBHOOK_SECRET, timestamp=None):
    payload = event if isinstance(event, str) else json.dumps(event)
    return client.post(
        URL,
        payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=sign(payload, secret, timestamp),
    )


def event(event_id, type_, obj):
    """A Stripe event of the API version whose invoices carry ``parent``."""
    return {**sponsorship_event(event_id, type_, obj), "api_version": "2025-03-31.basil"}


def invoice_paid(
    donation,
    *,
    invoice_id="in_donation_1",
    event_id="evt_in_1",
    amount=None,
    created=1773144000,
    charge="",
):
    """Stripe's invoice.paid of one month of a monthly gift (``created``: when Stripe made
    and charged the invoice; ``charge``: the charge a refund of it names)."""
    obj = {
        "id": invoice_id,
        "object": "invoice",
        "customer": "cus_donor_1",
        "customer_email": "giver@example.org",
        "amount_paid": int((amount or donation.amount) * 100),
        "currency": donation.currency.lower(),
        "created": created,
        **({"charge": charge} if charge else {}),
        "hosted_invoice_url": f"https://invoice.stripe.com/i/{invoice_id}",
        "parent": {
            "type": "subscription_details",
            "subscription_details": {
                "subscription": "sub_donation_1",
                "metadata": {"donation": str(donation.reference)},
            },
        },
    }
    return event(event_id, "invoice.paid", obj)


def payment_intent_succeeded(donation, *, intent_id="pi_donation_1", event_id="evt_pi_1", **extra):
    """Stripe's payment_intent.succeeded of a one-off gift: the intent the donate page made
    carries the donation's reference in its metadata."""
    obj = {
        "id": intent_id,
        "object": "payment_intent",
        "amount": int(donation.amount * 100),
        "amount_received": int(donation.amount * 100),
        "currency": donation.currency.lower(),
        "created": 1773144000,
        "customer": "cus_donor_1",
        "receipt_email": "giver@example.org",
        "invoice": None,
        "metadata": {"donation": str(donation.reference)},
        "status": "succeeded",
        **extra,
    }
    return event(event_id, "payment_intent.succeeded", obj)


def billing_days(anchor: date, count: int) -> list[date]:
    """The days Stripe charges a monthly subscription started on ``anchor``: the anchor's
    day of each month, or the month's last day when the month is shorter (started on 31
    January: 28 or 29 February, 31 March, 30 April, ...)."""
    days = []
    for n in range(count):
        year, month = divmod(anchor.month - 1 + n, 12)
        year, month = anchor.year + year, month + 1
        days.append(date(year, month, min(anchor.day, calendar.monthrange(year, month)[1])))
    return days
