"""The one Stripe client of the site (events are read by ``validation`` into ``events``).

Every Stripe call goes through ``client()``, a ``stripe.StripeClient`` built from the
settings (key, API base, timeout); nothing sets the SDK's module globals.
"""

import hashlib
import json
import time
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal

import stripe
from django.conf import settings
from stripe.params import (
    CustomerCreateParams,
    PaymentIntentCreateParams,
    PlanCreateParams,
    SetupIntentCreateParams,
    SubscriptionCreateParams,
)

from core.numbers import parse_int

# Stripe could not be reached or asked us to slow down: worth retrying later.
UNREACHABLE = (stripe.APIConnectionError, stripe.RateLimitError)
StripeError = stripe.StripeError
InvalidRequestError = stripe.InvalidRequestError
SignatureVerificationError = stripe.SignatureVerificationError
CardError = stripe.CardError

# The outbox kind that ends a subscription after the commit that let it go (registered in
# PaymentsConfig.ready()): sponsorships and monthly gifts alike.
CANCEL_SUBSCRIPTION = "payments.cancel_subscription"

_clients: dict[tuple[str, str, int], stripe.StripeClient] = {}


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


def options(idempotency_key: str = "") -> stripe.RequestOptions:
    return {"idempotency_key": idempotency_key} if idempotency_key else {}


def idempotency_key(local: str, *asked: object) -> str:
    """A key for a create call, derived from the local object (``local``, e.g.
    "organisation-7-customer") and what is asked of Stripe: the same request made twice (a
    double click, two workers) makes one object; a changed one (a corrected billing
    address, another card) is a new request, which Stripe would refuse under an old key."""
    digest = hashlib.sha256(json.dumps(asked, default=str, sort_keys=True).encode()).hexdigest()
    return f"{local}-{digest[:16]}"


def cancel_subscription(subscription_id: str, idempotency_key: str = "") -> None:
    """Ends the subscription now; one Stripe no longer knows is already ended."""
    try:
        client().v1.subscriptions.cancel(subscription_id, options=options(idempotency_key))
    except InvalidRequestError as error:
        if error.code != "resource_missing":
            raise


def create_customer(local: str, *, email: str, name: str = "", metadata: dict[str, str]) -> str:
    """A Stripe customer; returns its id (the caller stores it). ``local`` names the
    local object it is made for (see ``idempotency_key``)."""
    params: CustomerCreateParams = {"metadata": metadata}
    if email:
        params["email"] = email
    if name:
        params["name"] = name
    return client().v1.customers.create(params, options(idempotency_key(local, params))).id


def create_plan(
    local: str,
    *,
    product_name: str,
    amount: int,
    currency: str,
    interval: Literal["month", "year"],
) -> str:
    """A plan (with its product) charging ``amount`` (minor units) every ``interval``
    ("month" or "year"); returns the plan's id."""
    stripe = client().v1
    product = stripe.products.create(
        {"name": product_name}, options(idempotency_key(f"{local}-product", product_name))
    )
    params: PlanCreateParams = {
        "product": product.id,
        "amount": amount,
        "currency": currency.lower(),
        "interval": interval,
    }
    return stripe.plans.create(params, options(idempotency_key(f"{local}-plan", params))).id


def subscribe(
    local: str,
    *,
    customer_id: str,
    plan_id: str,
    metadata: dict[str, str],
    payment_method_id: str,
) -> str:
    """A subscription to the plan, charged to the customer's default card (``use_card``);
    its first invoice is paid at once or waits for 3-D Secure (``allow_incomplete``).
    The metadata is set on the subscription and on its item, which is what an invoice
    line carries: the first invoice's event names what it pays for even before this call
    has returned. Returns its id."""
    params: SubscriptionCreateParams = {
        "customer": customer_id,
        "items": [{"plan": plan_id, "metadata": metadata}],
        "metadata": metadata,
        "payment_behavior": "allow_incomplete",
    }
    key = idempotency_key(f"{local}-subscription", params, payment_method_id)
    return client().v1.subscriptions.create(params, options(key)).id


@dataclass(frozen=True)
class IssuedInvoice:
    stripe_id: str
    number: str
    due_on: date | None
    url: str  # Stripe's hosted page where it is paid ("" when Stripe gives none)


def send_invoice(
    key: str,
    *,
    customer_id: str,
    amount: int,
    currency: str,
    description: str,
    metadata: dict[str, str],
) -> IssuedInvoice:
    """An invoice of one line, ``amount`` in minor units, that Stripe emails to the
    customer, due in INVOICE_DUE_DAYS days, paid by transfer or on Stripe's hosted page.
    ``key`` is the idempotency key: a retry after a lost answer reuses what Stripe made."""
    stripe = client().v1
    stripe.invoice_items.create(
        {
            "customer": customer_id,
            "amount": amount,
            "currency": currency.lower(),
            "description": description,
            "metadata": metadata,
        },
        options(f"{key}-item"),
    )
    invoice = stripe.invoices.create(
        {
            "customer": customer_id,
            "collection_method": "send_invoice",
            "days_until_due": settings.INVOICE_DUE_DAYS,
            "metadata": metadata,
            "pending_invoice_items_behavior": "include",
        },
        options(key),
    )
    if invoice.status == "draft":
        stripe.invoices.finalize_invoice(invoice.id, options=options(f"{key}-finalize"))
    # Optional fields (a fake server may leave them out) are read from the plain dict.
    sent = stripe.invoices.send_invoice(invoice.id, options=options(f"{key}-send")).to_dict()
    due = sent.get("due_date")
    return IssuedInvoice(
        stripe_id=invoice.id,
        number=sent.get("number") or "",
        due_on=datetime.fromtimestamp(due, tz=UTC).date() if isinstance(due, int) else None,
        url=sent.get("hosted_invoice_url") or "",
    )


def mark_invoice_paid_out_of_band(invoice_id: str, idempotency_key: str = "") -> None:
    """A bank transfer paid it: Stripe stops asking the customer for the money."""
    client().v1.invoices.pay(
        invoice_id,
        {"paid_out_of_band": True},
        options(idempotency_key or f"{invoice_id}-paid-out-of-band"),
    )


def customer_portal_url(customer_id: str, return_url: str) -> str:
    """Stripe's own page where a customer changes a card, cancels and reads invoices."""
    session = client().v1.billing_portal.sessions.create(
        {"customer": customer_id, "return_url": return_url}
    )
    return session.url


def subscription_metadata(subscription_id: str) -> dict[str, str]:
    return client().v1.subscriptions.retrieve(subscription_id).to_dict().get("metadata") or {}


def _refused_signature(message: str, signature: str, text: str) -> SignatureVerificationError:
    # The SDK's error classes have unannotated constructors.
    return SignatureVerificationError(message, signature, text)  # type: ignore[no-untyped-call]


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
        raise _refused_signature("Several timestamps in the header", signature, text)
    try:
        signed_at = parse_int(timestamps[0], "t")  # ASCII digits only (issue 58)
    except ValueError as error:
        raise _refused_signature("Unreadable timestamp", signature, text) from error
    if signed_at > time.time() + tolerance:
        raise _refused_signature(
            "Timestamp in the future, outside the tolerance zone", signature, text
        )
    return text


# The card payments of the pay pages (sponsorships and gifts alike). The browser confirms
# a SetupIntent with the card typed into Stripe.js; the server then makes the payment
# with the payment method Stripe attached to it, and the browser answers 3-D Secure.


def create_setup_intent(
    customer_id: str, metadata: dict[str, str], *, recurring: bool
) -> dict[str, str | None]:
    """A SetupIntent of the customer, for the browser to confirm with the card:
    ``{"id", "client_secret"}``. ``recurring``: the card is kept for later charges made
    while the payer is away (renewals, monthly gifts)."""
    # The SDK's types know only allowed_payment_method_types (API 2026-10-28); the
    # fake and the site send payment_method_types.
    params: SetupIntentCreateParams = {  # type: ignore[typeddict-unknown-key]
        "customer": customer_id,
        "payment_method_types": ["card"],
        "usage": "off_session" if recurring else "on_session",
        "metadata": metadata,
    }
    setup = client().v1.setup_intents.create(params)
    return {"id": setup.id, "client_secret": setup.client_secret}


@dataclass(frozen=True)
class ConfirmedCard:
    customer_id: str
    payment_method_id: str
    metadata: dict[str, str]


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


def charge(
    card: ConfirmedCard, amount: int, currency: str, metadata: dict[str, str], key: str
) -> str:
    """A PaymentIntent of ``amount`` (minor units) confirmed now with the card; its id."""
    # The SDK's types know only allowed_payment_method_types (API 2026-10-28); the
    # fake and the site send payment_method_types.
    params: PaymentIntentCreateParams = {  # type: ignore[typeddict-unknown-key]
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


def _attempt_of(intent: dict[str, Any] | None) -> Attempt:
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


def cancel_payment_intent(payment_intent_id: str) -> None:
    """A payment left waiting for 3-D Secure can no longer be completed."""
    try:
        client().v1.payment_intents.cancel(payment_intent_id)
    except InvalidRequestError as error:
        if error.code != "resource_missing":
            raise


def refused(error: StripeError) -> Attempt:
    """A create call Stripe answered with a refusal of the card (402)."""
    return Attempt("failed", message=error.user_message or "The card was declined.")
