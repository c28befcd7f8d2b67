"""Stripe webhook payloads for tests: events shaped like Stripe's, signed like Stripe signs them."""

import hashlib
import hmac
import json
import time

from sponsors import stripe_gateway
from sponsors.services import paying
from tests.stripe_js import confirm_card_setup

WEBHOOK_SECRET = "whsec_test_secret"


def sign(payload: str, secret=WEBHOOK_SECRET, timestamp=None) -> str:
    timestamp = timestamp or int(time.time())
    signature = hmac.new(
        secret.encode(), f"{timestamp}.{payload}".encode(), hashlib.sha256
    ).hexdigest()
    return f"t={timestamp},v1={signature}"


def signed(event, secret=WEBHOOK_SECRET, timestamp=None):
    payload = json.dumps(event)
    return payload, sign(payload, secret, timestamp)


def event(event_id, type_, obj):
    return {
        "id": event_id,
        "object": "event",
        "type": type_,
        "created": int(time.time()),
        "data": {"object": obj},
        "api_version": "2024-06-20",
        "livemode": False,
    }


def price_fields(sponsorship):
    """What the pay page sends back: the price the payer was shown."""
    return {
        "amount": sponsorship.terms["annual_price"],
        "currency": sponsorship.terms["currency"],
        "payment_method": sponsorship.payment_method,
    }


def issued(stripe_id: str):
    """What ``stripe_gateway.send_invoice`` answers, for tests that replace that seam."""
    return stripe_gateway.IssuedInvoice(stripe_id=stripe_id, number="", due_on=None, url="")


def pay_by_card(sponsorship, number: str = "4242424242424242"):
    """The pay page's steps (sponsors.services.paying) with the card confirmed as Stripe.js
    confirms it in the browser (tests/stripe_js.py): where the payment then stands."""
    setup = paying.start(sponsorship)
    assert confirm_card_setup(setup["client_secret"], number)["status"] == "succeeded"
    return paying.pay(sponsorship, setup["id"])
