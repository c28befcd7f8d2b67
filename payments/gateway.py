"""The one Stripe client of the site (events are read by ``validation`` into ``events``).

Every Stripe call goes through ``client()``, a ``stripe.StripeClient`` built from the
settings (key, API base, timeout); nothing sets the SDK's module globals.
"""

import hashlib
import json
import time

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


def idempotency_key(local: str, *asked) -> str:
    """A key for a create call, derived from the local object (``local``, e.g.
    "organisation-7-customer") and what is asked of Stripe: the same request made twice (a
    double click, two workers) makes one object; a changed one (a corrected billing
    address, another card) is a new request, which Stripe would refuse under an old key."""
    digest = hashlib.sha256(json.dumps(asked, default=str, sort_keys=True).encode()).hexdigest()
    return f"{local}-{digest[:16]}"


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


def subscription_metadata(subscription_id: str) -> dict:
    return client().v1.subscriptions.retrieve(subscription_id).to_dict().get("metadata") or {}


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
    # The SDK checked the signature over the first ``t=``; the future is checked on the same
    # one, and a header with several is refused (a later t= must not hide a future first).
    timestamps = [part[2:] for part in signature.split(",") if part.startswith("t=")]
    if len(timestamps) != 1:
        raise SignatureVerificationError("Several timestamps in the header", signature, text)
    try:
        signed_at = int(timestamps[0])
    except ValueError as error:
        raise SignatureVerificationError("Unreadable timestamp", signature, text) from error
    if signed_at > time.time() + tolerance:
        raise SignatureVerificationError(
            "Timestamp in the future, outside the tolerance zone", signature, text
        )
    return text
