"""The one Stripe client of the site (events are read by ``validation`` into ``events``).

Every Stripe call goes through ``client()``, a ``stripe.StripeClient`` built from the
settings (key, API base, timeout); nothing sets the SDK's module globals.
"""

import hashlib
import json
import time
from dataclasses import dataclass

import stripe
from django.conf import settings

from core.numbers import parse_int

# Stripe could not be reached or asked us to slow down: worth retrying later.
UNREACHABLE = (stripe.APIConnectionError, stripe.RateLimitError)
StripeError = stripe.StripeError
InvalidRequestError = stripe.InvalidRequestError
SignatureVerificationError = stripe.SignatureVerificationError
CardError = stripe.CardError

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


def options(idempotency_key: str = "") -> dict:
    return {"idempotency_key": idempotency_key} if idempotency_key else {}


def idempotency_key(local: str, *asked) -> str:
    """A key for a create call, derived from the local object (``local``, e.g.
    "organisation-7-customer") and what is asked of Stripe: the same request made twice (a
    double click, two workers) makes one object; a changed one (a corrected billing
    address, another card) is a new request, which Stripe would refuse under an old key."""
    digest = hashlib.sha256(json.dumps(asked, default=str, sort_keys=True).encode()).hexdigest()
    return f"{local}-{digest[:16]}"


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
        signed_at = parse_int(timestamps[0], "t")  # ASCII digits only (issue 58)
    except ValueError as error:
        raise SignatureVerificationError("Unreadable timestamp", signature, text) from error
    if signed_at > time.time() + tolerance:
        raise SignatureVerificationError(
            "Timestamp in the future, outside the tolerance zone", signature, text
        )
    return text


# The card payments of the pay pages (sponsorships and gifts alike). The browser confirms
# a SetupIntent with the card typed into Stripe.js; the server then makes the payment
# with the payment method Stripe attached to it, and the browser answers 3-D Secure.


def create_setup_intent(customer_id: str, metadata: dict, *, recurring: bool) -> dict:
    """A SetupIntent of the customer, for the browser to confirm with the card:
    ``{"id", "client_secret"}``. ``recurring``: the card is kept for later charges made
    while the payer is away (renewals, monthly gifts)."""
    setup = client().v1.setup_intents.create(
        {
            "customer": customer_id,
            "payment_method_types": ["card"],
            "usage": "off_session" if recurring else "on_session",
            "metadata": metadata,
        }
    )
    return {"id": setup.id, "client_secret": setup.client_secret}


@dataclass(frozen=True)
class ConfirmedCard:
    customer_id: str
    payment_method_id: str
    metadata: dict


class NotConfirmed(Exception):
    """The SetupIntent is not one the browser confirmed with a card (or is someone else's)."""


def confirmed_card(setup_intent_id: str) -> ConfirmedCard:
    """What the browser's confirmed SetupIntent holds, as Stripe tells it (the browser
    only names it: the payment method and the metadata are read from Stripe)."""
    if not isinstance(setup_intent_id, str) or not setup_intent_id.startswith("seti_"):
        raise NotConfirmed("no SetupIntent named")
    try:
        setup = client().v1.setup_intents.retrieve(setup_intent_id).to_dict()
    except InvalidRequestError as error:
        raise NotConfirmed("unknown SetupIntent") from error
    method = setup.get("payment_method")
    method = method.get("id") if isinstance(method, dict) else method
    if setup.get("status") != "succeeded" or not method or not setup.get("customer"):
        raise NotConfirmed(f"SetupIntent is {setup.get('status')}")
    return ConfirmedCard(setup["customer"], method, dict(setup.get("metadata") or {}))


def use_card(card: ConfirmedCard) -> None:
    """The card becomes the customer's default for invoices (a subscription charges it).
    Stripe attaches it when the SetupIntent succeeds; the fake leaves that to this call."""
    stripe = client().v1
    method = stripe.payment_methods.retrieve(card.payment_method_id).to_dict()
    if method.get("customer") != card.customer_id:
        stripe.payment_methods.attach(card.payment_method_id, {"customer": card.customer_id})
    stripe.customers.update(
        card.customer_id,
        {"invoice_settings": {"default_payment_method": card.payment_method_id}},
    )


def charge(card: ConfirmedCard, amount: int, currency: str, metadata: dict, key: str) -> str:
    """A PaymentIntent of ``amount`` (minor units) confirmed now with the card; its id."""
    params = {
        "amount": amount,
        "currency": currency.lower(),
        "customer": card.customer_id,
        "payment_method": card.payment_method_id,
        "payment_method_types": ["card"],
        "confirm": True,
        "metadata": metadata,
    }
    return client().v1.payment_intents.create(params, options(key)).id


@dataclass(frozen=True)
class Attempt:
    """Where a card payment stands at Stripe: ``succeeded``, ``processing``,
    ``requires_action`` (the browser answers 3-D Secure with ``client_secret``) or
    ``failed`` (nothing taken; ``message`` is Stripe's reason)."""

    status: str
    client_secret: str = ""
    message: str = ""
    payment_method: str = ""  # the card it charges, while it waits for 3-D Secure

    @property
    def done(self) -> bool:
        return self.status in ("succeeded", "processing")


NOTHING = Attempt("none")


def _attempt_of(intent: dict | None) -> Attempt:
    if not intent:
        return Attempt("failed", message="Stripe made no payment.")
    status = intent.get("status")
    if status in ("succeeded", "processing", "requires_capture"):
        return Attempt("processing" if status != "succeeded" else "succeeded")
    if status == "requires_action":
        method = intent.get("payment_method")
        return Attempt(
            "requires_action",
            client_secret=intent.get("client_secret") or "",
            payment_method=(method.get("id") if isinstance(method, dict) else method) or "",
        )
    error = intent.get("last_payment_error") or {}
    return Attempt("failed", message=error.get("message") or "The payment was not completed.")


def payment_attempt(payment_intent_id: str) -> Attempt:
    try:
        return _attempt_of(client().v1.payment_intents.retrieve(payment_intent_id).to_dict())
    except InvalidRequestError as error:
        if error.code == "resource_missing":
            return Attempt("failed", message="Stripe has no such payment.")
        raise


def subscription_attempt(subscription_id: str) -> Attempt:
    """Where the first payment of a subscription stands."""
    try:
        subscription = (
            client()
            .v1.subscriptions.retrieve(
                subscription_id, {"expand": ["latest_invoice.payment_intent"]}
            )
            .to_dict()
        )
    except InvalidRequestError as error:
        if error.code == "resource_missing":
            return Attempt("failed", message="Stripe has no such subscription.")
        raise
    if subscription.get("status") in ("active", "trialing"):
        return Attempt("succeeded")
    invoice = subscription.get("latest_invoice")
    intent = invoice.get("payment_intent") if isinstance(invoice, dict) else None
    if subscription.get("status") != "incomplete":
        message = _attempt_of(intent if isinstance(intent, dict) else None).message
        return Attempt("failed", message=message or "The payment was not completed.")
    return _attempt_of(intent if isinstance(intent, dict) else None)


def cancel_payment_intent(payment_intent_id: str):
    """A payment left waiting for 3-D Secure can no longer be completed."""
    try:
        client().v1.payment_intents.cancel(payment_intent_id)
    except InvalidRequestError as error:
        if error.code != "resource_missing":
            raise


def refused(error: StripeError) -> Attempt:
    """A create call Stripe answered with a refusal of the card (402)."""
    return Attempt("failed", message=error.user_message or "The card was declined.")
