"""The Stripe calls of donations, through the one client of ``payments.gateway``.

Every create call carries an idempotency key derived from the donation's reference (and
what is asked), so a repeated request makes one object; the services store the ids the
calls return. Live: Stripe Checkout and the customer portal. Fake mode (localstripe, which has
neither): the test card typed on the donate page, charged or subscribed here. Either way
the donation's reference travels in the metadata of what Stripe makes (the payment
intent, the subscription and its invoice lines), so every webhook names its donation.
"""

from decimal import Decimal

from payments.gateway import (
    UNREACHABLE,
    StripeError,
    cancel_subscription,
    card_payment_method,
    client,
    idempotency_key,
    options,
)
from payments.money import minor_units

__all__ = ["UNREACHABLE", "StripeError", "cancel_subscription", "card_payment_method"]

PRODUCT_NAME = "Monthly gift to the MariaDB Foundation"
# The outbox kind of ``cancel_subscription`` (registered in DonationsConfig.ready()).
CANCEL_SUBSCRIPTION = "donations.cancel_subscription"


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
    metadata = {"donation": reference}
    price = {
        "currency": currency.lower(),
        "unit_amount": minor_units(amount, currency),
        "product_data": {"name": description},
    }
    params = {
        "client_reference_id": reference,
        "customer_email": email,
        "metadata": metadata,
        "success_url": success_url,
        "cancel_url": cancel_url,
        "line_items": [{"quantity": 1, "price_data": price}],
    }
    if monthly:
        price["recurring"] = {"interval": "month"}
        params.update(mode="subscription", subscription_data={"metadata": metadata})
    else:
        params.update(
            mode="payment",
            customer_creation="always",
            invoice_creation={"enabled": True},
            payment_intent_data={"metadata": metadata},
        )
    session = client().v1.checkout.sessions.create(
        params, options(idempotency_key(f"donation-{reference}-checkout", params))
    )
    return session.id, session.url


def customer_portal_url(customer_id: str, return_url: str) -> str:
    """Stripe's own page where a donor changes or cancels a gift and downloads invoices."""
    session = client().v1.billing_portal.sessions.create(
        {"customer": customer_id, "return_url": return_url}
    )
    return session.url


def charge_once(*, reference: str, payment_method: str, amount: Decimal, currency: str) -> str:
    """Fake mode: a confirmed PaymentIntent for a one-off gift; returns its id.

    Its payment_intent.succeeded event records the gift."""
    params = {
        "amount": minor_units(amount, currency),
        "currency": currency.lower(),
        "payment_method": payment_method,
        "confirm": True,
        "metadata": {"donation": reference},
    }
    key = idempotency_key(f"donation-{reference}-payment", params)
    return client().v1.payment_intents.create(params, options(key)).id


def subscribe_monthly(
    *, reference: str, email: str, payment_method: str, amount: Decimal, currency: str
) -> tuple[str, str]:
    """Fake mode: a customer paying with the card, a monthly plan of the amount and the
    subscription to it; returns (customer id, subscription id).

    Stripe invoices the first month at once; each paid invoice's event records a gift.
    """
    stripe = client().v1
    metadata = {"donation": reference}
    key = f"donation-{reference}"
    customer_params = {"metadata": metadata, **({"email": email} if email else {})}
    customer = stripe.customers.create(
        customer_params, options(idempotency_key(f"{key}-customer", customer_params))
    )
    stripe.payment_methods.attach(payment_method, {"customer": customer.id})
    stripe.customers.update(
        customer.id, {"invoice_settings": {"default_payment_method": payment_method}}
    )
    product = stripe.products.create(
        {"name": PRODUCT_NAME}, options(idempotency_key(f"{key}-product", PRODUCT_NAME))
    )
    plan_params = {
        "product": product.id,
        "amount": minor_units(amount, currency),
        "currency": currency.lower(),
        "interval": "month",
    }
    plan = stripe.plans.create(plan_params, options(idempotency_key(f"{key}-plan", plan_params)))
    subscription_params = {
        "customer": customer.id,
        # The item's metadata is what an invoice line carries: the first invoice's
        # event names the donation even before this call has returned.
        "items": [{"plan": plan.id, "metadata": metadata}],
        "metadata": metadata,
    }
    subscription = stripe.subscriptions.create(
        subscription_params,
        options(idempotency_key(f"{key}-subscription", subscription_params, payment_method)),
    )
    return customer.id, subscription.id
