"""Every call to Stripe goes through here (one seam for tests and for the fake server)."""

import time
from decimal import Decimal

import stripe
from django.conf import settings

# Stripe could not be reached or asked us to slow down: worth retrying later.
UNREACHABLE = (stripe.APIConnectionError, stripe.RateLimitError)


def configure():
    stripe.api_key = settings.STRIPE_SECRET_KEY
    stripe.api_base = settings.STRIPE_API_BASE or stripe.DEFAULT_API_BASE
    client = stripe.default_http_client
    if client is None or getattr(client, "_timeout", None) != settings.STRIPE_TIMEOUT:
        stripe.default_http_client = stripe.new_default_http_client(timeout=settings.STRIPE_TIMEOUT)


def invoice_subscription_details(invoice) -> dict:
    """An invoice's subscription details: top level until 2025 (``subscription_details``,
    which is null on one-off invoices), under ``parent.subscription_details`` since.
    Whatever the payload holds, the answer is a dict (empty when there is none)."""
    parent = invoice.get("parent")
    details = parent.get("subscription_details") if isinstance(parent, dict) else None
    details = details or invoice.get("subscription_details")
    return details if isinstance(details, dict) else {}


def minor_units(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def ensure_customer(organisation) -> str:
    configure()
    if not organisation.stripe_customer_id:
        customer = stripe.Customer.create(
            email=organisation.billing_email,
            name=organisation.billing_name,
            metadata={"organisation": str(organisation.pk)},
        )
        organisation.stripe_customer_id = customer.id
        organisation.save(update_fields=["stripe_customer_id"])
    return organisation.stripe_customer_id


def card_payment_method(card: dict) -> str:
    """Test mode only: make a PaymentMethod from card fields (the live site uses Checkout)."""
    configure()
    return stripe.PaymentMethod.create(type="card", card=card).id


def attach_default_payment_method(customer_id: str, payment_method_id: str):
    configure()
    stripe.PaymentMethod.attach(payment_method_id, customer=customer_id)
    stripe.Customer.modify(
        customer_id, invoice_settings={"default_payment_method": payment_method_id}
    )


def ensure_plan(tier) -> str:
    configure()
    if not tier.stripe_plan_id:
        product = stripe.Product.create(name=f"{tier.name} {tier.programme.name} {tier.year}")
        plan = stripe.Plan.create(
            product=product.id,
            amount=minor_units(tier.annual_price),
            currency=tier.currency.lower(),
            interval="year",
        )
        tier.stripe_plan_id = plan.id
        tier.save(update_fields=["stripe_plan_id"])
    return tier.stripe_plan_id


def subscribe(customer_id: str, plan_id: str, sponsorship_id: int) -> str:
    configure()
    subscription = stripe.Subscription.create(
        customer=customer_id,
        items=[{"plan": plan_id}],
        metadata={"sponsorship": str(sponsorship_id)},
    )
    return subscription.id


def charge_once(
    customer_id: str, payment_method_id: str, amount: Decimal, currency: str, sponsorship_id: int
) -> str:
    configure()
    intent = stripe.PaymentIntent.create(
        amount=minor_units(amount),
        currency=currency.lower(),
        customer=customer_id,
        payment_method=payment_method_id,
        confirm=True,
        metadata={"sponsorship": str(sponsorship_id)},
    )
    return intent.id


def checkout_url(
    *,
    customer_id: str,
    sponsorship_id: int,
    success_url: str,
    cancel_url: str,
    plan_id: str = "",
    amount: Decimal | None = None,
    currency: str = "",
    description: str = "",
) -> str:
    """Live mode: a Stripe Checkout session, Stripe's hosted page where the card is typed.

    With ``plan_id`` it starts the annual subscription, otherwise a one-off payment of
    ``amount``. The sponsorship id travels in the metadata of the session and of the
    subscription or payment it creates, so every later webhook names its sponsorship.
    """
    configure()
    metadata = {"sponsorship": str(sponsorship_id)}
    common = {
        "customer": customer_id,
        "client_reference_id": str(sponsorship_id),
        "metadata": metadata,
        "success_url": success_url,
        "cancel_url": cancel_url,
    }
    if plan_id:
        session = stripe.checkout.Session.create(
            mode="subscription",
            line_items=[{"price": plan_id, "quantity": 1}],
            subscription_data={"metadata": metadata},
            **common,
        )
    else:
        session = stripe.checkout.Session.create(
            mode="payment",
            line_items=[
                {
                    "quantity": 1,
                    "price_data": {
                        "currency": currency.lower(),
                        "unit_amount": minor_units(amount),
                        "product_data": {"name": description},
                    },
                }
            ],
            payment_intent_data={"metadata": metadata},
            **common,
        )
    return session.url


def send_invoice(
    customer_id: str, amount: Decimal, currency: str, sponsorship_id: int, description: str
) -> str:
    """An invoice Stripe emails to the customer, due in 30 days.

    Idempotency keys make a retry after a lost answer reuse what Stripe already made.
    """
    configure()
    metadata = {"sponsorship": str(sponsorship_id)}
    key = f"sponsorship-{sponsorship_id}-invoice"
    stripe.InvoiceItem.create(
        customer=customer_id,
        amount=minor_units(amount),
        currency=currency.lower(),
        description=description,
        metadata=metadata,
        idempotency_key=f"{key}-item",
    )
    invoice = stripe.Invoice.create(
        customer=customer_id,
        collection_method="send_invoice",
        days_until_due=30,
        metadata=metadata,
        pending_invoice_items_behavior="include",
        idempotency_key=key,
    )
    if invoice.status == "draft":
        stripe.Invoice.finalize_invoice(invoice.id)
    stripe.Invoice.send_invoice(invoice.id)
    return invoice.id


def cancel_subscription(subscription_id: str):
    configure()
    stripe.Subscription.delete(subscription_id)


def verify_webhook(payload: bytes, signature: str, secret: str = "") -> str:
    """The payload as text when it is Stripe's and dated within the tolerance.

    Raises stripe.SignatureVerificationError, or ValueError for bytes that are not UTF-8.
    The SDK refuses only signatures older than the tolerance; one dated further in the
    future is refused here too. ``secret`` is the endpoint's signing secret (Stripe gives
    each endpoint its own); the sponsorship endpoint's by default.
    """
    text = payload.decode("utf-8")
    tolerance = stripe.Webhook.DEFAULT_TOLERANCE
    stripe.WebhookSignature.verify_header(
        text, signature, secret or settings.STRIPE_WEBHOOK_SECRET, tolerance
    )
    fields = dict(part.split("=", 1) for part in signature.split(",") if "=" in part)
    if int(fields.get("t", "0")) > time.time() + tolerance:
        raise stripe.SignatureVerificationError(
            "Timestamp in the future, outside the tolerance zone", signature, text
        )
    return text
