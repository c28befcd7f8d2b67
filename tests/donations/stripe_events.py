"""Stripe-shaped webhook events for donations, signed as Stripe signs them."""

import json

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


def checkout_completed(donation, *, mode="payment", event_id="evt_cs_1", **extra):
    obj = {
        "id": donation.stripe_checkout_session_id,
        "object": "checkout.session",
        "mode": mode,
        "client_reference_id": str(donation.reference),
        "metadata": {"donation": str(donation.reference)},
        "customer": "cus_donor_1",
        "customer_details": {"email": "giver@example.org"},
        "payment_status": "paid",
        "amount_total": int(donation.amount * 100),
        "currency": donation.currency.lower(),
        "created": 1773144000,
        "payment_intent": "pi_donation_1" if mode == "payment" else None,
        "subscription": "sub_donation_1" if mode == "subscription" else None,
        **extra,
    }
    return event(event_id, "checkout.session.completed", obj)


def invoice_paid(donation, *, invoice_id="in_donation_1", event_id="evt_in_1", amount=None):
    obj = {
        "id": invoice_id,
        "object": "invoice",
        "customer": "cus_donor_1",
        "customer_email": "giver@example.org",
        "amount_paid": int((amount or donation.amount) * 100),
        "currency": donation.currency.lower(),
        "created": 1773144000,
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
    """Stripe's payment_intent.succeeded: a Checkout payment's intent carries the metadata
    of ``payment_intent_data`` (localstripe's has no ``amount_received``)."""
    obj = {
        "id": intent_id,
        "object": "payment_intent",
        "amount": int(donation.amount * 100),
        "amount_received": int(donation.amount * 100),
        "currency": donation.currency.lower(),
        "created": 1773144000,
        "customer": "cus_donor_1",
        "invoice": None,
        "metadata": {"donation": str(donation.reference)},
        "status": "succeeded",
        **extra,
    }
    return event(event_id, "payment_intent.succeeded", obj)
