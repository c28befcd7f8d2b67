"""The Stripe calls of donations: Checkout, the customer portal and webhook checks.

Shares the SDK set-up of ``sponsors.stripe_gateway`` (one place configures Stripe).
"""

import json
from decimal import Decimal

import stripe
from django.conf import settings

from sponsors.stripe_gateway import configure, minor_units, verify_webhook

StripeError = stripe.StripeError


class ForgedEvent(Exception):
    """The payload is not a genuine, current Stripe event."""


def checkout_url(
    *,
    reference: str,
    email: str,
    amount: Decimal,
    currency: str,
    monthly: bool,
    description: str,
    success_url: str,
    cancel_url: str,
) -> tuple[str, str]:
    """A Stripe Checkout session for one gift; returns (session id, URL to send the donor to)."""
    configure()
    metadata = {"donation": reference}
    price = {
        "currency": currency.lower(),
        "unit_amount": minor_units(amount),
        "product_data": {"name": description},
    }
    common = {
        "client_reference_id": reference,
        "customer_email": email,
        "metadata": metadata,
        "success_url": success_url,
        "cancel_url": cancel_url,
        "line_items": [{"quantity": 1, "price_data": price}],
    }
    if monthly:
        price["recurring"] = {"interval": "month"}
        session = stripe.checkout.Session.create(
            mode="subscription", subscription_data={"metadata": metadata}, **common
        )
    else:
        session = stripe.checkout.Session.create(
            mode="payment",
            customer_creation="always",
            invoice_creation={"enabled": True},
            payment_intent_data={"metadata": metadata},
            **common,
        )
    return session.id, session.url


def customer_portal_url(customer_id: str, return_url: str) -> str:
    """Stripe's own page where a donor changes or cancels a gift and downloads invoices."""
    configure()
    session = stripe.billing_portal.Session.create(customer=customer_id, return_url=return_url)
    return session.url


def verify_event(payload: bytes, signature_header: str):
    """The decoded JSON of a genuine event (its shape is not checked here), or ForgedEvent:
    a bad signature, a stale one or one from the future."""
    try:
        text = verify_webhook(
            payload, signature_header, secret=settings.STRIPE_DONATIONS_WEBHOOK_SECRET
        )
        return json.loads(text)
    except (ValueError, stripe.SignatureVerificationError) as error:
        raise ForgedEvent(str(error)) from error
