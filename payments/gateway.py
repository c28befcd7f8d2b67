"""The one Stripe client of the site, and the Stripe shapes every app reads.

Every Stripe call goes through ``client()``, a ``stripe.StripeClient`` built from the
settings (key, API base, timeout); nothing sets the SDK's module globals.
"""

import time
from decimal import Decimal

import stripe
from django.conf import settings

# Stripe could not be reached or asked us to slow down: worth retrying later.
UNREACHABLE = (stripe.APIConnectionError, stripe.RateLimitError)
StripeError = stripe.StripeError
InvalidRequestError = stripe.InvalidRequestError
SignatureVerificationError = stripe.SignatureVerificationError

_clients: dict[tuple, stripe.StripeClient] = {}


def client() -> stripe.StripeClient:
    """The client for the current settings (tests change them, so it is keyed on them)."""
    base = settings.STRIPE_API_BASE or stripe.DEFAULT_API_BASE
    config = (settings.STRIPE_SECRET_KEY, base, settings.STRIPE_TIMEOUT)
    if config not in _clients:
        _clients[config] = stripe.StripeClient(
            settings.STRIPE_SECRET_KEY,
            base_addresses={"api": base},
            http_client=stripe.new_default_http_client(timeout=settings.STRIPE_TIMEOUT),
            max_network_retries=0,  # the outbox retries, with its own backoff
        )
    return _clients[config]


def fake_mode() -> bool:
    """Whether Stripe is a local fake (localstripe, in ``make run`` and the tests).

    The fake has no Checkout and no customer portal, so the site takes the test card on
    its own pages and cancels subscriptions itself. ``check --deploy`` refuses
    STRIPE_API_BASE in production, and this refuses it again.
    """
    return bool(settings.STRIPE_API_BASE) and not settings.PRODUCTION


def options(idempotency_key: str = "") -> dict:
    return {"idempotency_key": idempotency_key} if idempotency_key else {}


def minor_units(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def card_payment_method(card: dict) -> str:
    """Fake mode only: a PaymentMethod made from card fields (the live site uses Checkout,
    where the card is typed on Stripe's page)."""
    return client().v1.payment_methods.create({"type": "card", "card": card}).id


def cancel_subscription(subscription_id: str, idempotency_key: str = ""):
    """Ends the subscription now; one Stripe no longer knows is already ended."""
    try:
        client().v1.subscriptions.cancel(subscription_id, options=options(idempotency_key))
    except InvalidRequestError as error:
        if error.code != "resource_missing":
            raise


def invoice_subscription_details(invoice) -> dict:
    """An invoice's subscription details: top level until 2025 (``subscription_details``,
    which is null on one-off invoices), under ``parent.subscription_details`` since.
    Whatever the payload holds, the answer is a dict (empty when there is none)."""
    parent = invoice.get("parent")
    details = parent.get("subscription_details") if isinstance(parent, dict) else None
    details = details or invoice.get("subscription_details")
    return details if isinstance(details, dict) else {}


def verify_webhook(payload: bytes, signature: str) -> str:
    """The payload as text when it is Stripe's and dated within the tolerance.

    Raises SignatureVerificationError, or ValueError for bytes that are not UTF-8.
    The SDK refuses only signatures older than the tolerance; one dated further in the
    future is refused here too.
    """
    text = payload.decode("utf-8")
    tolerance = stripe.Webhook.DEFAULT_TOLERANCE
    stripe.WebhookSignature.verify_header(
        text, signature, settings.STRIPE_WEBHOOK_SECRET, tolerance
    )
    fields = dict(part.split("=", 1) for part in signature.split(",") if "=" in part)
    try:
        signed_at = int(fields.get("t", "0"))
    except ValueError as error:
        raise SignatureVerificationError("Unreadable timestamp", signature, text) from error
    if signed_at > time.time() + tolerance:
        raise SignatureVerificationError(
            "Timestamp in the future, outside the tolerance zone", signature, text
        )
    return text
